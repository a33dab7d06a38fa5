// `npm run front-door`: writes the front door's nginx configuration from the route table.
//
//   npm run front-door                  infra/front-door/nginx.conf, the one compose runs (run it after a
//                                       change to the table; a test fails while the file is out of date)
//   npm run front-door -- --one-machine a configuration for the processes on this machine, that
//                                       Debian's nginx runs as written: `nginx -c <dir>/nginx.conf`
//
// For one machine: --dir (default ./data/front-door) holds the configuration, nginx's pid, logs,
// temporary files and cache; --listen (default 8080) is where the door listens; --command, --query,
// --collab and --site (defaults 127.0.0.1:3001 to :3004; a comma-separated list for several) are
// where each process listens; --workers (default auto). The processes' timeouts are read from the
// environment, as the processes read them. It prints how to start the processes behind it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@eventide/kernel/config.ts';
import { composeNginxConfig, nginxConfig } from './nginx.ts';
import { PROCESSES, type ProcessName } from './topology.ts';

export const COMPOSE_CONFIG = new URL('nginx.conf', import.meta.url);

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/** Debian builds the stream module apart (libnginx-mod-stream); the official image builds it in. */
const DEBIAN_STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';

/** Whether this machine's nginx is there with its stream module, and where that module is when it is apart. */
export function nginxWithStream(): { available: boolean; streamModule?: string } {
  const version = spawnSync(NGINX, ['-V'], { encoding: 'utf8' });
  if (version.status !== 0) return { available: false };
  const built = `${version.stderr}${version.stdout}`;
  if (/--with-stream(?=\s)/.test(built)) return { available: true };
  if (built.includes('--with-stream=dynamic') && existsSync(DEBIAN_STREAM_MODULE))
    return { available: true, streamModule: DEBIAN_STREAM_MODULE };
  return { available: false };
}

/** The first port of the processes on one machine, in PROCESSES' order: command 3001, query 3002, collab 3003, site 3004. */
const FIRST_PORT = 3001;

export interface OneMachineDoor {
  /** The configuration written. */
  file: string;
  /** How nginx runs it, in the foreground (a unit's ExecStart; Ctrl-C or SIGQUIT stops it). */
  nginxArgs: string[];
  /** What to run, one line each: the processes behind the door, then nginx. */
  commands: string[];
}

/** Writes the configuration of a door for processes on this machine, from the command line's options. */
export function writeOneMachineConfig(args: string[], env: NodeJS.ProcessEnv = process.env): OneMachineDoor {
  const { values } = parseArgs({
    args,
    options: {
      'one-machine': { type: 'boolean' },
      dir: { type: 'string', default: './data/front-door' },
      listen: { type: 'string', default: '8080' },
      workers: { type: 'string', default: 'auto' },
      ...Object.fromEntries(PROCESSES.map((name) => [name, { type: 'string' as const }])),
    },
  });
  const dir = resolve(values.dir);
  const upstreams = Object.fromEntries(
    PROCESSES.map((name, at) => [
      name,
      ((values as unknown as Record<string, string | undefined>)[name] ?? `127.0.0.1:${FIRST_PORT + at}`).split(','),
    ]),
  ) as Record<ProcessName, string[]>;
  const found = nginxWithStream();
  if (!found.available) throw new Error(`nginx with its stream module is not at ${NGINX}: apt-get install -y nginx libnginx-mod-stream`);
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const file = `${dir}/nginx.conf`;
  writeFileSync(
    file,
    nginxConfig({
      listen: values.listen,
      upstreams,
      runtimeDirectory: dir,
      workers: values.workers === 'auto' ? 'auto' : Number(values.workers),
      processes: loadConfig(env),
      ...(found.streamModule ? { streamModule: found.streamModule } : {}),
    }),
  );
  const start = (name: ProcessName) =>
    upstreams[name].map((address) => {
      const [host, port] = [address.slice(0, address.lastIndexOf(':')), address.slice(address.lastIndexOf(':') + 1)];
      // Behind the door a process listens on loopback by itself; another host is said.
      return `${host === '127.0.0.1' ? '' : `HOST=${host} `}PORT=${port} TRUST_PROXY_HOPS=1 npm run start:${name}`;
    });
  const nginxArgs = ['-e', `${dir}/error.log`, '-c', file, '-g', 'daemon off;'];
  return {
    file,
    nginxArgs,
    commands: [...PROCESSES.flatMap(start), 'npm run start:projector', `${NGINX} -e ${dir}/error.log -c ${file} -g 'daemon off;'`],
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args.includes('--one-machine')) {
    const door = writeOneMachineConfig(args);
    console.log(`wrote ${door.file}; start the processes and the door, each in its own terminal or unit:\n${door.commands.join('\n')}`);
  } else {
    writeFileSync(COMPOSE_CONFIG, composeNginxConfig());
    console.log(`wrote ${COMPOSE_CONFIG.pathname}`);
  }
}
