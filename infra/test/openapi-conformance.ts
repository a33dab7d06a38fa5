// Does an answer match the OpenAPI document the site serves (/openapi.json)? The document is
// checked as a client generated from it would read it: the path and method, the status (each
// declared on its own, with the problem types it carries), the headers a client may act on, the
// media type, and the body against the JSON Schema, with a JSON Schema 2020-12 validator (Ajv),
// not against the zod schemas the document was written from — so a document that disagrees with
// its own source fails too.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RESPONSE_HEADERS } from '@eventide/contract/answers.ts';
import { templateMatcher } from '@eventide/contract/path-templates.ts';
import type { Reply } from '@eventide/testing/json-client.ts';

type Json = Record<string, any>;

/** The headers a client may act on: one an answer carries must be declared for that answer. */
const API_HEADERS = Object.keys(RESPONSE_HEADERS).map((name) => name.toLowerCase());

/** `~` and `/` escaped as a JSON pointer wants them, then the whole made safe in a URI fragment. */
const pointer = (...segments: string[]) => segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

export interface Conformance {
  /** Why the reply does not match the document, or undefined when it does. */
  mismatch(reply: Pick<Reply, 'request' | 'status' | 'headers' | 'text'>): string | undefined;
}

export function openApiConformance(document: Json): Conformance {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#/${ref}` });
      compiled.set(ref, validate);
    }
    return validate;
  };
  // Which of the document's paths a request's path is: by the rule the processes route by.
  const templateOf = templateMatcher(Object.keys(document.paths));

  function validateBody(ref: string, text: string, what: string): string | undefined {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${what}: the body is not JSON`;
    }
    const validate = validator(ref);
    if (validate(body)) return undefined;
    const [first] = validate.errors ?? [];
    return `${what}: ${first?.instancePath || '(body)'} ${first?.message ?? 'does not match'} (${JSON.stringify(first?.params)})`;
  }

  /** Any problem document, of a path or method the document does not have: 404, 405. */
  function problemOnly(status: number, mediaType: string, text: string, what: string): string | undefined {
    if (status < 400) return `${what}: not in the document`;
    if (mediaType !== 'application/problem+json') return `${what}: answered ${mediaType || 'no body'}, not a problem document`;
    return validateBody(pointer('components', 'schemas', 'Problem'), text, what);
  }

  return {
    mismatch({ request, status, headers, text }) {
      const method = request.method.toLowerCase();
      const path = request.path.split('?')[0]!;
      let what = `${request.method} ${path} ${status}`;
      // OPTIONS is HTTP's own question (which methods, Allow), not an operation a document describes.
      if (method === 'options' && status < 300) return undefined;
      const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const template = templateOf(path);
      // HEAD is answered as GET is, without the body.
      const operation = template && document.paths[template][method === 'head' ? 'get' : method];
      if (!template || !operation) return problemOnly(status, mediaType, text, what);
      // Said of the operation, not of the one path: a kind of answer is listed once, however many ids met it.
      what = `${request.method} ${template} ${status}`;
      const responses = operation.responses as Json;
      // Each status the operation answers is declared on its own: a range (4XX) or `default` says nothing a client can act on.
      const key = String(status);
      if (!(key in responses)) return `${what}: status ${status} is not declared (${Object.keys(responses).join(', ')})`;
      const declared = Object.keys(responses[key].headers ?? {}).map((name) => name.toLowerCase());
      const undeclared = API_HEADERS.filter((name) => headers.has(name) && !declared.includes(name));
      if (undeclared.length > 0) return `${what}: sets ${undeclared.join(', ')}, not declared for this answer`;
      const content = responses[key].content as Json | undefined;
      if (text === '' || method === 'head') {
        return content && status !== 304 && method !== 'head'
          ? `${what}: an empty body, documented as ${Object.keys(content).join(', ')}`
          : undefined;
      }
      if (!content) return `${what}: a body (${mediaType || 'untyped'}) where the document says none`;
      if (!(mediaType in content)) return `${what}: ${mediaType || 'untyped'} is not documented (${Object.keys(content).join(', ')})`;
      if (!content[mediaType].schema || !/json/.test(mediaType)) return undefined;
      return validateBody(pointer('paths', template, method, 'responses', key, 'content', mediaType, 'schema'), text, what);
    },
  };
}
