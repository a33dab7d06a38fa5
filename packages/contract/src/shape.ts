// The shape of one operation of the route table (routes.ts): its parameters, query, body and
// answers as zod schemas, and for a versioned resource how each version represents it.
import type { z } from 'zod';
import type { ApiVersion } from './versions.ts';

/** The response headers the API sets that a client may act on (answers.ts says what each means). */
export type ResponseHeader =
  | 'ETag'
  | 'Location'
  | 'Event-Position'
  | 'Read-Position'
  | 'Retry-After'
  | 'Deprecation'
  | 'Sunset'
  | 'Link'
  | 'RateLimit-Policy'
  | 'RateLimit-Limit'
  | 'RateLimit-Remaining'
  | 'RateLimit-Reset';

export interface Answer {
  description: string;
  /** What the handler sets beside the body (those the mount and the limits add are derived: answers.ts). */
  headers?: readonly ResponseHeader[];
  /** A schema, or for a versioned resource one made of the version's representation (a page of it). */
  body?: z.ZodType | ((entity: z.ZodType) => z.ZodType);
  /** Default application/json. */
  contentType?: string;
}

/** A path parameter: what it must be, and what it names (a value that is not one names nothing: 404). */
export interface PathParameter<Value = unknown> {
  schema: z.ZodType<Value, string>;
  names: string;
}

/** The versions of a resource: each one's wire schema, and how its state is shown in it. */
export interface Representations<State = never> {
  schema: Record<ApiVersion, z.ZodType>;
  represent: Record<ApiVersion, (state: State) => unknown>;
}

/** A body of bytes rather than JSON (a picture): the media types taken, and the most bytes. */
export interface Upload {
  mediaTypes: readonly string[];
  maxBytes: number;
  description: string;
}

export interface Shape {
  params?: Record<string, PathParameter>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A body of bytes, which the handler gets as a Buffer; never with `body`. */
  upload?: Upload;
  /** Success answers by status; refusals are problem documents (docs/errors.md). */
  answers: Record<number, Answer>;
  representations?: Representations<never>;
}
