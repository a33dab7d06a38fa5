// The parts the resources' shapes (resources/*/shapes.ts) are made of: an entity's id in a path,
// the kinds of answer that are not JSON, and the six operations of a versioned resource.
import { z } from 'zod';
import { isUuid } from '@eventide/kernel/ids.ts';
import { offsetPageOf } from './common.ts';
import { asOfQuery, historyPage, historyQuery } from './history.ts';
import type { Answer, PathParameter, Representations } from './shape.ts';

/** An entity's id as a path parameter: `names` is what a 404 says was not found. */
export const entityId = (names: string): PathParameter<string> => ({
  // Ids are UUIDs; anything else cannot name an entity, so it is not found rather than malformed.
  schema: z
    .string()
    .refine(isUuid)
    .transform((id) => id.toLowerCase()),
  names,
});

export const html = (description: string): Answer => ({ description, contentType: 'text/html' });
/** A file held in memory (static-file.ts), with its validator. */
export const file = (description: string, contentType: string): Answer => ({ description, contentType, headers: ['ETag'] });
export const redirect = (description: string): Answer => ({ description, headers: ['Location'] });
export const noContent: Answer = { description: 'done; no body' };
export const healthJson = (description: string): Answer => ({ description, contentType: 'application/health+json' });
/** A file held in memory (static-file.ts): 304 when the client's copy (its ETag) is current. */
export const unchanged: Answer = { description: 'unchanged since the ETag sent', headers: ['ETag'] };

const page = (entity: z.ZodType) => offsetPageOf(entity);
const one = (entity: z.ZodType) => entity;

/** The shapes of a versioned resource's six operations, whose answers are made of its representations. */
export function versionedShapes<
  Params extends Record<string, PathParameter>,
  List extends z.ZodType,
  Create extends z.ZodType,
  Change extends z.ZodType,
  Replace extends z.ZodType,
  Shown extends Representations<never>,
>(
  noun: string,
  shapes: { params: Params; list: List; create: Create; change: Change; replace: Replace; representations: Shown; deleted: string },
) {
  const { params, representations } = shapes;
  return {
    list: { query: shapes.list, answers: { 200: { description: `a page of ${noun}s, newest first`, body: page } }, representations },
    get: {
      params,
      query: asOfQuery,
      answers: {
        200: {
          description: `the ${noun} (as it was at \`at\`, when given); its version is the ETag`,
          body: one,
          headers: ['ETag'] as const,
        },
      },
      representations,
    },
    create: {
      body: shapes.create,
      answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body: one } },
      representations,
    },
    change: {
      params,
      body: shapes.change,
      answers: { 200: { description: 'changed; the new ETag and Event-Position are set', body: one } },
      representations,
    },
    replace: {
      params,
      body: shapes.replace,
      answers: { 200: { description: 'replaced; the new ETag and Event-Position are set', body: one } },
      representations,
    },
    delete: { params, answers: { 200: { description: shapes.deleted, body: one } }, representations },
  };
}

/** An entity's history: the same shape for the three. */
export function history<Params>(params: Params, noun: string) {
  return {
    params,
    query: historyQuery,
    answers: { 200: { description: `a page of the ${noun}'s changes, newest first`, body: historyPage } },
  };
}
