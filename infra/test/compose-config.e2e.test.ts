// infra/compose.yaml as Debian's docker-compose reads it (`docker-compose config`): a file an
// operator can start, whose only doors are the front door and the engines' own ports, whose
// processes trust the one proxy hop in front of them, and whose engines' profile runs the
// contract suites and the walk through the site. And infra/compose.postgres.yaml, the same
// processes behind the same door on one PostgreSQL.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROCESSES } from '../front-door/topology.ts';

const COMPOSE_FILE = fileURLToPath(new URL('../compose.yaml', import.meta.url));
const POSTGRES_FILE = fileURLToPath(new URL('../compose.postgres.yaml', import.meta.url));
const available = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
if (!available) console.warn('SKIPPED: the compose file check needs docker-compose (apt-get install -y docker-compose)');

interface ComposeService {
  ports?: Array<{ published?: number | string; target: number } | string>;
  environment?: Record<string, string>;
  volumes?: Array<{ source: string; target: string } | string>;
  command?: string[];
}

function config(...args: string[]): { status: number | null; output: string; services: Record<string, ComposeService> } {
  return configOf(COMPOSE_FILE, args, { SESSION_SECRET: 's'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) });
}

function configOf(
  file: string,
  args: string[],
  env: Record<string, string>,
): { status: number | null; output: string; services: Record<string, ComposeService> } {
  const run = spawnSync('docker-compose', ['-f', file, ...args, 'config'], { encoding: 'utf8', env: { ...process.env, ...env } });
  const output = run.stdout + run.stderr;
  return { status: run.status, output, services: run.status === 0 ? parse(run.stdout).services : {} };
}

describe.skipIf(!available)('infra/compose.yaml', () => {
  it('is a file docker-compose accepts, with every process of the split deployment behind the front door', () => {
    const { status, output, services } = config();
    expect(status, output).toBe(0);
    for (const process of PROCESSES) expect(Object.keys(services)).toContain(process);
    const door = services['front-door']!;
    // The configuration written from the route table (front-door.e2e.test.ts checks it is current).
    const mounts = (door.volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`));
    expect(mounts.some((mount) => mount.includes('/front-door/nginx.conf:/etc/nginx/nginx.conf'))).toBe(true);
    // A process reached directly would take a forged X-Forwarded-For: none publishes a port.
    for (const process of PROCESSES) {
      expect(services[process]!.ports ?? [], process).toEqual([]);
      expect(services[process]!.environment?.TRUST_PROXY_HOPS, process).toBe('1');
    }
  });

  it('refuses to start without the shared secrets', () => {
    const run = spawnSync('docker-compose', ['-f', COMPOSE_FILE, 'config'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/set SESSION_SECRET to 32 or more random characters/);
  });

  it('has an engines profile that runs the contract suites and the walk through the front door', () => {
    const { status, output, services } = config('--profile', 'contracts');
    expect(status, output).toBe(0);
    const contracts = services.contracts!;
    expect(contracts.environment).toMatchObject({ EVENTIDE_URL: 'http://front-door' });
    expect(contracts.command).toEqual(expect.arrayContaining(['packages', 'infra/test/engines-walk.e2e.test.ts']));
  });

  it('runs the same processes behind the same door on one PostgreSQL, with no other engine (compose.postgres.yaml)', () => {
    const { status, output, services } = configOf(POSTGRES_FILE, [], { POSTGRES_PASSWORD: 'p'.repeat(16) });
    expect(status, output).toBe(0);
    for (const process of [...PROCESSES, 'projector']) {
      const environment = services[process]!.environment ?? {};
      expect(environment.DATABASE_URL, process).toBe(`postgresql://eventide:${'p'.repeat(16)}@postgres:5432/eventide`);
      for (const engine of ['EVENTSTORE_URL', 'MONGO_URL', 'KAFKA_BROKERS'])
        expect(environment[engine], `${process} ${engine}`).toBeUndefined();
    }
    for (const process of PROCESSES) {
      expect(services[process]!.ports ?? [], process).toEqual([]);
      expect(services[process]!.environment?.TRUST_PROXY_HOPS, process).toBe('1');
    }
    const door = services['front-door']!;
    const mounts = (door.volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`));
    expect(mounts.some((mount) => mount.includes('/front-door/nginx.conf:/etc/nginx/nginx.conf'))).toBe(true);
    const refused = spawnSync('docker-compose', ['-f', POSTGRES_FILE, 'config'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(refused.stderr).toMatch(/set POSTGRES_PASSWORD/);
  });
});
