// Connections one thread of `npm start` takes from a client and passes on whole to another
// (runtime/request-threads/steering.ts): how the receiving server tells them from its own, and
// how the passing one tells its caps what it can see of them.
import type { Socket } from 'node:net';

/**
 * Marks a connection that another thread of the process took from its client and passed on whole
 * (runtime/request-threads/steering.ts): that thread counts it in its caps and watches its client's
 * progress, so this server's caps and watch leave it alone.
 */
export const COUNTED_ELSEWHERE = Symbol('eventide.countedElsewhere');
export const countedElsewhere = (socket: Socket): boolean =>
  (socket as Socket & { [COUNTED_ELSEWHERE]?: true })[COUNTED_ELSEWHERE] === true;
/**
 * What a server emits, with the socket, each time bytes of an answer come back through a connection
 * it passed on whole. It never sees a request there, so for shedding under pressure
 * (connections.ts) such a connection waits for its first request until its first answer, and is
 * idle, as one whose answer was sent, after each: a slow sender of headers is shed first still, the
 * one answered last among the idle, last.
 */
export const ANSWERED_THROUGH = 'eventide:answered-through';
