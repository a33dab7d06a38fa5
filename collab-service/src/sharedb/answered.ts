// Work that lasts until a client's message is answered: ShareDB answers every request exactly
// once, a success through the 'reply' middleware, an error by sending the request itself back.
// Callbacks ride on the message object (which ShareDB passes along unchanged) under a symbol,
// which JSON never serialises.
import type ShareDB from 'sharedb';

const WHEN_ANSWERED = Symbol('when answered');
type Carrying = { [WHEN_ANSWERED]?: Array<() => void> };

/** Calls `callback` once the message has been answered (or never, if its connection closes first). */
export function whenAnswered(message: object, callback: () => void): void {
  const carrying = message as Carrying;
  carrying[WHEN_ANSWERED] ??= [];
  carrying[WHEN_ANSWERED].push(callback);
}

/** Runs what waits for the message's answer (whenAnswered): ShareDB's answers call it, and so does an answer sent past ShareDB. */
export function answered(message: unknown): void {
  if (typeof message !== 'object' || message === null) return;
  const carrying = message as Carrying;
  const callbacks = carrying[WHEN_ANSWERED];
  if (!callbacks) return;
  delete carrying[WHEN_ANSWERED];
  for (const callback of callbacks) callback();
}

export function installAnswerHooks(backend: ShareDB): void {
  backend.use('reply', (context, next) => {
    answered((context as unknown as { request: unknown }).request);
    next();
  });
  backend.on('send', (_agent: unknown, message: unknown) => answered(message));
}
