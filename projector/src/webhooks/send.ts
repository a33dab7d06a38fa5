// Sends one delivery: a POST to the endpoint, signed as Standard Webhooks says, to an address
// checked where the connection is made (platform/outbound/destinations.ts), with a bound on the
// time the receiver takes and on what it answers. No redirect is followed (one could lead inside).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { checkBeforeConnecting, pinnedLookup, type DestinationPolicy } from '@eventide/platform/outbound/destinations.ts';
import type { WebhookSecret } from '@eventide/stores/webhooks/port.ts';

/** What is read of an answer at most; the rest is not waited for. */
export const ANSWER_CAP_BYTES = 64 * 1024;
/** What of an answer's body is kept with the delivery, for the admin. */
const ANSWER_KEPT_CHARS = 200;

export interface SendResult {
  ok: boolean;
  status?: number;
  /** Why it failed, in words; for a 2xx, undefined. */
  error?: string;
}

/** The webhook-signature header: one `v1,<signature>` per secret that still signs, space-separated. */
export function signatures(secrets: readonly WebhookSecret[], now: number, messageId: string, at: Date, body: string): string {
  return secrets
    .filter((s) => s.until === undefined || s.until > now)
    .map((s) => new Webhook(s.secret).sign(messageId, at, body))
    .join(' ');
}

export async function send(options: {
  url: string;
  messageId: string;
  body: string;
  secrets: readonly WebhookSecret[];
  now: number;
  policy: DestinationPolicy;
  timeoutMs: number;
}): Promise<SendResult> {
  const { body, messageId } = options;
  let url: URL;
  try {
    url = checkBeforeConnecting(options.url, options.policy);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const at = new Date(options.now);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'eventide-webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures(options.secrets, options.now, messageId, at, body),
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    const outgoing = request(
      url,
      { method: 'POST', headers, lookup: pinnedLookup(url, options.policy) as never, signal: AbortSignal.timeout(options.timeoutMs) },
      (answer) => {
        let read = 0;
        let kept = '';
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (kept.length < ANSWER_KEPT_CHARS) kept += chunk.toString('utf8').slice(0, ANSWER_KEPT_CHARS - kept.length);
          if (read > ANSWER_CAP_BYTES) answer.destroy();
        });
        const finish = () => {
          const status = answer.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve(ok ? { ok, status } : { ok, status, error: `answered ${status}${kept ? `: ${kept.replace(/\s+/g, ' ').trim()}` : ''}` });
        };
        answer.once('end', finish);
        answer.once('close', finish);
        answer.once('error', finish);
      },
    );
    outgoing.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : (error.code ? `${error.code}: ` : '') + error.message;
      resolve({ ok: false, error: why });
    });
    outgoing.end(body);
  });
}
