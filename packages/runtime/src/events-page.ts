// /docs/events: the AsyncAPI document of the event distribution (/asyncapi.json) as a page a
// person reads: each topic, each message with its headers, the fields of its payload and an
// example. Drawn here rather than by AsyncAPI's React renderer, which installs 246 packages
// (120 MB) to serve one 3 MB script; this page needs no script at all.
import { asyncApiDocument } from '@eventide/contract/asyncapi.ts';

type Json = Record<string, unknown>;
interface Message {
  name: string;
  summary?: string;
  headers: { properties: Record<string, { description?: string; const?: string }>; required: string[] };
  /** The envelope (a reference to it), or a stream message's data. */
  payload: Json;
  examples?: Array<{ payload: unknown }>;
}
interface Channel {
  address: string;
  title: string;
  description: string;
  /** A topic's: the prefix it is under. A stream of the HTTP API has none. */
  parameters?: { prefix: { default: string } };
  messages: Record<string, { $ref: string }>;
}

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A JSON Schema in a few words: the types it takes. */
function typeOf(schema: Json): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.$ref) return String(schema.$ref).split('/').pop()!.toLowerCase();
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return options.map(typeOf).join(' or ');
  if (schema.enum) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items as Json)}`;
  if (schema.type === 'object' && schema.properties) return `{${Object.keys(schema.properties as Json).join(', ')}}`;
  return Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any');
}

/** The payload's fields, nested ones by dotted path. */
function fields(schema: Json, path = ''): Array<{ path: string; type: string; required: boolean }> {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([key, property]) => {
    const at = path ? `${path}.${key}` : key;
    const row = { path: at, type: typeOf(property), required: required.has(key) };
    return property.type === 'object' && property.properties ? [row, ...fields(property, at)] : [row];
  });
}

function messageSection(message: Message, topic: string, resolve: (schema: Json) => Json): string {
  const headerRows = Object.entries(message.headers.properties)
    .map(
      ([name, header]) =>
        `<tr><td><code>${html(name)}</code></td><td>${message.headers.required.includes(name) ? 'always' : 'when set'}</td><td>${header.const ? `<code>${html(header.const)}</code>: ` : ''}${html(header.description ?? '')}</td></tr>`,
    )
    .join('');
  const fieldRows = fields((resolve(message.payload).properties as { data: Json }).data)
    .map((f) => `<tr><td><code>${html(f.path)}</code></td><td>${html(f.type)}</td><td>${f.required ? 'yes' : 'no'}</td></tr>`)
    .join('');
  return `<section id="${html(message.name)}"><h3>${html(message.name)}</h3><p>${html(message.summary ?? message.name)}, on <code>${html(topic)}</code>, keyed by the entity’s id.</p>
<h4>Headers</h4><table><thead><tr><th>header</th><th>present</th><th>what</th></tr></thead><tbody>${headerRows}</tbody></table>
<h4>Payload (<code>data</code> of the envelope)</h4><table><thead><tr><th>field</th><th>type</th><th>required</th></tr></thead><tbody>${fieldRows}</tbody></table>
<details><summary>Example envelope</summary><pre>${html(JSON.stringify(message.examples?.[0]?.payload, null, 2))}</pre></details></section>`;
}

/** A stream of the HTTP API: each SSE message by its `event:` name, with what its `data:` holds. */
function streamSection(channel: Channel, messages: Message[], resolve: (schema: Json) => Json): string {
  const rows = messages
    .map((message) => {
      const payload = message.payload.$ref
        ? `the envelope of <a href="#${html(message.name)}">${html(message.name)}</a>`
        : fields(resolve(message.payload))
            .map((f) => `<code>${html(f.path)}</code>${f.required ? '' : '?'}: ${html(f.type)}`)
            .join(', ');
      const when = html(message.summary ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');
      return `<tr><td><code>${html(message.name)}</code></td><td>${when}</td><td>${payload}</td></tr>`;
    })
    .join('');
  return `<h2>${html(channel.title)}: server-sent events</h2><p>${html(channel.description)} Each message’s <code>id:</code> is a position to resume after (<code>Last-Event-ID</code>).</p>
<table><thead><tr><th><code>event:</code></th><th>when</th><th><code>data:</code> (JSON)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function eventsPage(): string {
  const document = asyncApiDocument() as {
    info: { title: string; version: string; description: string };
    channels: Record<string, Channel>;
    components: { messages: Record<string, Message>; schemas: Record<string, Json> };
  };
  const resolve = (schema: Json): Json => (schema.$ref ? document.components.schemas[String(schema.$ref).split('/').pop()!]! : schema);
  const channels = Object.values(document.channels)
    .map((channel) => {
      const messages = Object.values(channel.messages).map(({ $ref }) => document.components.messages[$ref.split('/').pop()!]!);
      if (!channel.parameters) return streamSection(channel, messages, resolve);
      const topic = channel.address.replace('{prefix}', channel.parameters.prefix.default);
      return `<h2>${html(channel.title)}: <code>${html(topic)}</code></h2>${messages.map((m) => messageSection(m, topic, resolve)).join('')}`;
    })
    .join('');
  const description = document.info.description
    .split('\n\n')
    .map((p) => `<p>${html(p).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(document.info.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #d9d9de;padding:.25rem .5rem;text-align:left;vertical-align:top}
code{font-size:.9em}pre{background:#f5f5f7;padding:.75rem;overflow:auto}section{border-top:1px solid #d9d9de;margin-top:1.5rem}</style>
</head><body><main>
<h1>${html(document.info.title)}</h1>${description}
<p>Schema versions: ${html(document.info.version)}. The whole description, as AsyncAPI 3: <a href="/asyncapi.json">/asyncapi.json</a>. The HTTP API: <a href="/docs">/docs</a>.</p>
${channels}
</main></body></html>`;
}
