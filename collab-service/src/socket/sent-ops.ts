// Ops already sent on a connection are not sent again. ShareDB answers a submitted op with every
// op committed since its version, and catches a subscription up with ops the subscription may
// also deliver, so a client can be sent the same op many times; its client ignores the repeats.
// Left alone, a client that submits many ops against an old version makes the server send the
// same history over and over (quadratic in the number of ops). Only a request for ops from a
// version (fetch or subscribe) lowers what counts as already sent.
type Outgoing = { a?: unknown; c?: unknown; d?: unknown; v?: unknown; error?: unknown; [field: string]: unknown };

/** Documents remembered per connection; beyond it the oldest is forgotten (fewer repeats dropped, nothing lost). */
const MAX_DOCUMENTS = 1000;

export class SentOps {
  private readonly highest = new Map<string, number>();

  /** The client asked for the ops from `version` on: it holds none of them, whatever was sent. */
  asked(collection: unknown, id: unknown, version: unknown): void {
    if (typeof version !== 'number') return;
    this.remember(`${String(collection)}\n${String(id)}`, version - 1);
  }

  /** Notes an outgoing message; true when it is an op this connection was already sent. */
  isRepeat(message: Outgoing): boolean {
    if (message.a !== 'op' || message.error !== undefined || typeof message.v !== 'number') return false;
    // Acks are op messages without an op: each answers one submit, and is never a repeat.
    if (!('op' in message) && !('create' in message) && !('del' in message)) return false;
    const key = `${String(message.c)}\n${String(message.d)}`;
    const highest = this.highest.get(key);
    if (highest !== undefined && message.v <= highest) return true;
    this.remember(key, message.v);
    return false;
  }

  private remember(key: string, version: number): void {
    this.highest.delete(key);
    this.highest.set(key, version);
    if (this.highest.size > MAX_DOCUMENTS) this.highest.delete(this.highest.keys().next().value!);
  }
}
