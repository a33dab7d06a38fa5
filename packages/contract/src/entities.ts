// What the API derives from an entity's declaration (kernel/entities/entity.ts): the body of its
// answers and how a state is shown in it. Its input bodies are the declaration's own
// (createInput, changesInput).
import { z } from 'zod';
import type { Detail, Entity } from '@eventide/kernel/entities/entity.ts';
import { timestamps } from './common.ts';

type Details = Readonly<Record<string, Detail>>;
type BodyShape<K extends string, D extends Details> = { [P in K]: z.ZodString } & {
  -readonly [P in keyof D]: D[P]['stored'];
} & typeof timestamps;

/** An entity as the API answers it: its id, its details as stored, when it was made, changed and deleted, and its revision. */
export function bodyOf<K extends string, D extends Details>(entity: Entity<string, K, D>): z.ZodObject<BodyShape<K, D>, z.core.$strict> {
  return z.strictObject({ [entity.idKey]: z.string(), ...entity.stored.shape, ...timestamps } as BodyShape<K, D>);
}

/** A state of an entity that exists: its id, its details, its bookkeeping, and whether it was deleted. */
type KnownState = { status: string; createdAt: string; updatedAt: string; version: number; deletedAt?: string };

/**
 * How a state is shown: its id, each detail (what it means unstated, for an entity recorded
 * before the detail existed), and its bookkeeping, `deletedAt` only once deleted.
 */
export function representationOf<K extends string, D extends Details>(entity: Entity<string, K, D>) {
  type Body = z.output<ReturnType<typeof bodyOf<K, D>>>;
  // Read once: a representation is made for every entity of every page and every search hit.
  const { idKey } = entity;
  const names = Object.keys(entity.details);
  const unstated = names.map((name) => entity.details[name]?.unstated);
  return (state: KnownState): Body => {
    const fields = state as KnownState & Record<string, unknown>;
    // Built in one order for every state, so that V8 gives every answer one shape.
    const shown: Record<string, unknown> = {};
    shown[idKey] = fields[idKey];
    for (let i = 0; i < names.length; i++) {
      const value = fields[names[i]!];
      shown[names[i]!] = value === undefined ? unstated[i] : value;
    }
    shown.createdAt = state.createdAt;
    shown.updatedAt = state.updatedAt;
    if (state.status === 'deleted') shown.deletedAt = state.deletedAt;
    shown.version = state.version;
    return shown as Body;
  };
}
