// The nine public event names, `<model>:<action>`, apart from their schemas (catalogue.ts), so
// that a browser page can list them without loading the schema library.
export const MODELS = ['user', 'order', 'product'] as const;
export const ACTIONS = ['created', 'updated', 'deleted'] as const;
export type Model = (typeof MODELS)[number];
export type Action = (typeof ACTIONS)[number];
export type EventName = `${Model}:${Action}`;

export const EVENT_NAMES: readonly EventName[] = MODELS.flatMap((model) => ACTIONS.map((action) => `${model}:${action}` as const));

export function isEventName(value: string): value is EventName {
  return (EVENT_NAMES as readonly string[]).includes(value);
}
