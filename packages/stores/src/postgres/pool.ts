// A pool of connections to PostgreSQL, as every store on it opens one.
import pg from 'pg';

/** Connections a store holds at most, unless told: a process runs a few stores and followers. */
const DEFAULT_SIZE = 10;

export function openPool(url: string, size = DEFAULT_SIZE): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: size });
  // An idle connection the server drops (a restart, a failover) is an 'error' on the pool; with no
  // listener, Node would end the process. The pool has already let the connection go, and the
  // next query opens another, so there is nothing to do but not die.
  pool.on('error', () => undefined);
  return pool;
}
