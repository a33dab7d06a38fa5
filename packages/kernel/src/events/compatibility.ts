// The compatibility gate of the public events: the catalogue (schemas, upcasters, examples)
// against what was published of it (published.json: per event and version, the payload's JSON
// Schema and an example). Once a version is published, events are written at it, and the store
// keeps them for ever: a schema may change only as a new version, whose upcaster turns every
// older version's example into a payload the new schema takes. `npm run events:publish` adds the
// current versions (publish-cli.ts); the gate's test fails on any problem found here.
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { EVENT_NAMES, payloadSchemas } from './catalogue.ts';
import { EXAMPLES } from './examples.ts';
import { UPCASTERS, upcastWith, type Payload, type Upcaster } from './versions.ts';
import { jsonSchemaOf, type JsonSchema } from '../json-schema.ts';

export type { JsonSchema };
export { jsonSchemaOf };
export interface PublishedVersion {
  schema: JsonSchema;
  example: Payload;
}
/** Per event name, per version ("1", "2", …): what was published. */
export type Published = Record<string, Record<string, PublishedVersion>>;

export interface VersionedEvent {
  schema: z.ZodType;
  upcasters: readonly Upcaster[];
  example: Payload;
}
export type Catalogue = Record<string, VersionedEvent>;

export const PUBLISHED_FILE = fileURLToPath(new URL('./published.json', import.meta.url));
const HOW = 'docs/events.md#changing-an-event';

/** The catalogue as this release has it. */
export function currentCatalogue(): Catalogue {
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [name, { schema: payloadSchemas[name], upcasters: UPCASTERS[name], example: EXAMPLES[name] as Payload }]),
  );
}

export function readPublished(file = PUBLISHED_FILE): Published {
  return JSON.parse(readFileSync(file, 'utf8')) as Published;
}

export const versionOfCatalogue = (event: VersionedEvent) => event.upcasters.length + 1;

/** Every problem of the catalogue against what was published, in words that say what to do; none when it may ship. */
export function compatibilityProblems(catalogue: Catalogue, published: Published): string[] {
  const problems: string[] = [];
  for (const [type, event] of Object.entries(catalogue)) {
    const current = versionOfCatalogue(event);
    const schema = jsonSchemaOf(event.schema);
    const leftOut = fieldsLeftOut(schema, event.example);
    if (leftOut.length > 0) problems.push(`the example of ${type} leaves out ${leftOut.join(', ')}: an example shows every field`);
    const own = event.schema.safeParse(event.example);
    if (!own.success) problems.push(`the example of ${type} does not match its schema: ${issuesOf(own.error)}`);

    const versions = published[type] ?? {};
    const mine = versions[current];
    if (!mine) {
      problems.push(`${type} version ${current} is not published: run \`npm run events:publish\` and commit what it writes`);
    } else if (!isDeepStrictEqual(mine.schema, schema)) {
      problems.push(
        `${type} changed since its version ${current} was published, and events written as version ${current} may no longer read: ` +
          `make the change version ${current + 1}, with an upcaster from ${current} in packages/kernel/src/events/versions.ts, then \`npm run events:publish\` (${HOW})`,
      );
    }
    for (const [key, old] of Object.entries(versions)) {
      const version = Number(key);
      if (version > current) {
        problems.push(
          `${type} version ${version} was published, but this catalogue is at ${current}: events written as ${version} cannot be read (was an upcaster removed?)`,
        );
        continue;
      }
      let read: Payload;
      try {
        read = upcastWith(event.upcasters, version, old.example, type);
      } catch (error) {
        problems.push(`${type} version ${version}'s example fails its upcasters: ${(error as Error).message}`);
        continue;
      }
      const parsed = event.schema.safeParse(read);
      if (!parsed.success) {
        problems.push(
          `${type} version ${version}'s published example does not read as version ${current}: ${issuesOf(parsed.error)} ` +
            `(an upcaster from ${version} must make it one: ${HOW})`,
        );
      }
    }
  }
  return problems;
}

/** A schema's complaints, each with the field it is about. */
function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`).join('; ');
}

/** The fields a JSON Schema allows that the example leaves out (dotted paths), looking into objects, arrays and nullables. */
export function fieldsLeftOut(schema: JsonSchema, example: unknown, path = ''): string[] {
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) {
    const matching = options.find((option) => (option.type === 'null') === (example === null));
    return matching ? fieldsLeftOut(matching, example, path) : [];
  }
  if (schema.type === 'array' && Array.isArray(example) && schema.items) {
    return example.length === 0 ? [`${path}[]`] : fieldsLeftOut(schema.items as JsonSchema, example[0], `${path}[]`);
  }
  if (schema.type === 'object' && schema.properties && typeof example === 'object' && example !== null) {
    return Object.entries(schema.properties as Record<string, JsonSchema>).flatMap(([key, property]) => {
      const at = path ? `${path}.${key}` : key;
      return key in example ? fieldsLeftOut(property, (example as Record<string, unknown>)[key], at) : [at];
    });
  }
  return [];
}
