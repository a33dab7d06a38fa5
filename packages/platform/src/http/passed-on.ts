// Connections one thread of `npm start` takes from a client and passes on whole to another
// (runtime/request-threads/steering.ts): how the receiving server tells them from its own, and
// how the passing one says it let one go.
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
 * What a server emits for a connection it passed on whole to another thread, with the socket: it
 * will never see a request on it, and must not shed it as one that asks for nothing.
 */
export const PASSED_ON = 'eventide:passed-on';
