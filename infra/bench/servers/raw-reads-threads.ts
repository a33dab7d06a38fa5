// The raw floor (raw-reads.ts) as FLOOR_THREADS threads of one process, each with connections of its
// own to the files and a socket of its own on FLOOR_PORT (SO_REUSEPORT), as our request threads are:
// beside the floor on as many processes, what threads sharing one process cost a server that shares
// nothing else. Threads of one process share SQLite's record of each file's locks (its unix VFS),
// and take its mutex to change it; processes each have their own. Prints {"port": n} once every
// thread listens.
import { Worker } from 'node:worker_threads';
import { createInterface } from 'node:readline';

const threads = Number(process.env.FLOOR_THREADS ?? 2);
if (!process.env.FLOOR_PORT) throw new Error('FLOOR_PORT must name the port the threads share');
const ports = await Promise.all(
  Array.from({ length: threads }, () => {
    const worker = new Worker(new URL('./raw-reads.ts', import.meta.url), { stdout: true });
    return new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`a floor thread exited with ${code} before it listened`)));
      createInterface({ input: worker.stdout }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
  }),
);
console.log(JSON.stringify({ port: ports[0] }));
