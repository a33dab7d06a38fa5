// Which of node-postgres's errors mean the server cannot be reached now, rather than that a
// statement is wrong: those become StoreUnavailableError at the adapters' boundary.
import { StoreUnavailableError } from '../unavailable.ts';

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOENT', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator, crashed, starting up), 53300 (no connection free).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/** node-postgres's own words for a connection that ended or could not be had in time. */
const CONNECTION_LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect|Client was closed/i;

export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  return typeof message === 'string' && CONNECTION_LOST.test(message);
}

/** Runs `work`; a failure to reach the server becomes StoreUnavailableError, anything else stays as it is. */
export async function reaching<T>(store: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isUnavailable(error) ? new StoreUnavailableError(store, error) : error;
  }
}
