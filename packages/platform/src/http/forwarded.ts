// Requests that a request thread of `npm start` hands to the thread that writes
// (runtime/request-threads): they arrive on a private socket of the process, each with the
// client's address as the thread that took the connection saw it. The writing thread's app takes
// that address in place of the socket's, so that limits and logs count the client, not the thread.
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

/** Set on a handed-over request, once its token was checked, by the writing thread's private door. */
export const FORWARDED_ADDRESS = Symbol('eventide.forwardedAddress');

export type ForwardedRequest = IncomingMessage & { [FORWARDED_ADDRESS]?: string };

/** The client's address for a request another thread handed over; undefined for one taken here. */
export const forwardedAddressOf = (req: IncomingMessage): string | undefined => (req as ForwardedRequest)[FORWARDED_ADDRESS];

/**
 * First in the stack: before anything reads ctx.ip, a handed-over request's is its client's, by
 * Koa's own rule with the peer the request thread saw in place of this socket's: the address
 * X-Forwarded-For gives when proxies are trusted (TRUST_PROXY_HOPS), else that peer.
 */
export const takeForwardedAddress: Middleware = (ctx, next) => {
  const peer = forwardedAddressOf(ctx.req);
  if (peer !== undefined) ctx.request.ip = ctx.request.ips[0] || peer;
  return next();
};
