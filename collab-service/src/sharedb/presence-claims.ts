// Presence ids are chosen by clients, and ShareDB would let any client update any id: this
// makes the first client to use an id its owner until it leaves. When a client leaves, however
// it leaves (closed tab, dead network), its cursors are withdrawn from everyone's screen;
// ShareDB itself only does that when the client says goodbye.
import type ShareDB from 'sharedb';
import { DOCUMENTS } from './access.ts';
import { collabErrors } from '../errors.ts';

/** Presence ids one connection may hold: one per open document is all an editor uses. */
const MAX_PRESENCE_IDS = 100;

interface Claimant {
  clientId: string;
  src: string | null;
  stream: NodeJS.EventEmitter;
}

interface Held {
  ch: string;
  id: string;
  c: unknown;
  d: unknown;
  pv: number;
}

export class PresenceClaims {
  private readonly owners = new Map<string, Claimant>();
  private readonly held = new Map<Claimant, Map<string, Held>>();

  private readonly backend: ShareDB;

  constructor(backend: ShareDB) {
    this.backend = backend;
  }

  /** Throws if another client holds this presence id on this channel. */
  claim(agent: Claimant, message: { ch?: unknown; id?: unknown; c?: unknown; d?: unknown; pv?: unknown }): void {
    if (typeof message.ch !== 'string' || typeof message.id !== 'string') return; // ShareDB refuses these itself
    const key = `${message.ch}\n${message.id}`;
    const owner = this.owners.get(key);
    if (owner && owner !== agent) throw collabErrors.presenceTaken();
    this.owners.set(key, agent);
    let mine = this.held.get(agent);
    if (mine && !mine.has(key) && mine.size >= MAX_PRESENCE_IDS) throw collabErrors.presenceLimit(MAX_PRESENCE_IDS);
    if (!mine) {
      mine = new Map();
      this.held.set(agent, mine);
      const release = () => this.release(agent);
      agent.stream.once('close', release);
      agent.stream.once('end', release);
    }
    const pv = typeof message.pv === 'number' ? message.pv : 0;
    mine.set(key, { ch: message.ch, id: message.id, c: message.c, d: message.d, pv: Math.max(pv, mine.get(key)?.pv ?? 0) });
  }

  get size(): number {
    return this.owners.size;
  }

  private release(agent: Claimant): void {
    const mine = this.held.get(agent);
    if (!mine) return;
    this.held.delete(agent);
    for (const [key, held] of mine) {
      if (this.owners.get(key) === agent) this.owners.delete(key);
      void this.withdraw(agent, held);
    }
  }

  /** Tells the others this cursor is gone, at the document's current version so it applies at once. */
  private async withdraw(agent: Claimant, held: Held): Promise<void> {
    let version: number | null = null;
    if (held.c === DOCUMENTS && typeof held.d === 'string') {
      version = await new Promise<number | null>((resolve) =>
        this.backend.db.getSnapshot(DOCUMENTS, held.d as string, null, null, (error: Error | null, snapshot?: { v: number }) =>
          resolve(error ? null : (snapshot?.v ?? null)),
        ),
      );
    }
    const message = {
      a: 'p',
      ch: held.ch,
      src: agent.src ?? agent.clientId,
      id: held.id,
      p: null,
      pv: held.pv + 1,
      c: held.c,
      d: held.d,
      v: version,
    };
    this.backend.pubsub.publish([`$presence.${held.ch}`], message, () => undefined);
  }
}
