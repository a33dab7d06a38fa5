// librdkafka's mock cluster, started through kcat (Debian's `kcat`), as a real Kafka wire-protocol
// peer; and kcat again as an independent, non-JavaScript consumer of our topics.
import { spawnSync } from 'node:child_process';
import { spawnInGroup } from './processes.ts';
import { START_BOUND_MS } from './wait.ts';

export function kcatAvailable(): boolean {
  return spawnSync('kcat', ['-V']).status === 0;
}

export interface MockKafka {
  brokers: string[];
  stop(): Promise<void>;
}

/** A 3-broker cluster; topics are created on first use with 4 partitions. */
export async function startMockKafka(): Promise<MockKafka> {
  const child = spawnInGroup('kcat', ['-X', 'test.mock.num.brokers=3', '-b', 'localhost:1', '-C', '-t', 'eventide.keepalive'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const brokers = await new Promise<string[]>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`kcat's mock cluster did not name its brokers within ${START_BOUND_MS} ms; it wrote: ${seen || '(nothing)'}`)),
      START_BOUND_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /replaced with (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.split(','));
      }
    });
    child.once('exit', (code) => reject(new Error(`kcat exited with ${code}: ${seen}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    brokers,
    async stop() {
      child.kill();
      await exited;
    },
  };
}

export interface KcatMessage {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  payload: string;
  headers: Record<string, string>;
}

/** Everything on a topic so far, read by kcat from the beginning to the end. */
export async function kcatRead(brokers: string[], topic: string): Promise<KcatMessage[]> {
  const child = spawnInGroup('kcat', ['-C', '-b', brokers.join(','), '-t', topic, '-o', 'beginning', '-e', '-J', '-q'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`kcat failed reading ${topic} (exit ${code})`);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const raw = JSON.parse(line) as {
        topic: string;
        partition: number;
        offset: number;
        key: string;
        payload: string;
        headers?: string[];
      };
      const headers: Record<string, string> = {};
      for (let i = 0; i + 1 < (raw.headers ?? []).length; i += 2) headers[raw.headers![i]!] = raw.headers![i + 1]!;
      return { topic: raw.topic, partition: raw.partition, offset: raw.offset, key: raw.key, payload: raw.payload, headers };
    });
}
