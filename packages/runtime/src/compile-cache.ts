// Node's compile cache for an entry point: the code of every module, TypeScript stripped and
// compiled, kept on disk (under node_modules/.cache, so that it goes with the dependencies) and
// reused by the next start whose files are unchanged. It must be on before the modules load, so
// an entry point calls this first and then imports the rest dynamically. Loading `npm start`'s
// modules took 1.05-1.1 s without it and 0.68-0.73 s with it (2026-11-27, Node 24, two cores).
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/node-compile-cache', import.meta.url));

/** Turns the cache on for the modules loaded from now on; NODE_COMPILE_CACHE, when set, says where instead. */
export function keepCompiledCode(): void {
  // A directory that cannot be written leaves the cache off, and the start as it was.
  enableCompileCache(process.env.NODE_COMPILE_CACHE || CACHE);
}
