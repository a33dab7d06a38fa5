// A zod schema as JSON Schema (draft 2020-12), without its $schema, for embedding in a document:
// the OpenAPI and AsyncAPI documents, and the event schemas each version publishes. One place, so
// that all three write a schema alike. `io`: what a client sends (input) or is given (output).
import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
