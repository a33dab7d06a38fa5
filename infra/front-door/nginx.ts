// The front door of a split deployment as an nginx configuration, written from the route table
// (routes.ts) and the processes' own settings, so that no path, method, Allow list, correlation-id
// rule or limit is written twice. `npm run front-door` writes infra/front-door/nginx.conf, the
// one compose runs; the front door's end-to-end test writes one for processes on this machine.
//
// nginx rather than Caddy, Envoy or Traefik: routing on method and path is one `map`, WebSocket
// upgrades and per-address connection caps are built in, it is in Debian and in every container
// registry, and operators know how to read its configuration.
import { loadConfig, type Config } from '@eventide/kernel/config.ts';
import { SANE_CORRELATION_ID } from '@eventide/platform/http/request-context.ts';
import { COLLAB_PATH } from '@eventide/contract/resources/documents/collab-wire.ts';
import { templatePattern } from '@eventide/contract/path-templates.ts';
import { instanceMap, problemBody, problemLocations, problemPages } from './problems.ts';
import { CORRELATION, JSON_SAFE_SEGMENT, quoted } from './syntax.ts';
import { allowOfPath, doorPaths } from './routes.ts';
import { PROCESSES, type ProcessName } from './topology.ts';

export interface FrontDoorOptions {
  /** Where the door listens: a port (`80`) or an address and port (`127.0.0.1:8080`). */
  listen: string;
  /** Each process's addresses (host:port); a process with several is balanced by least connections. */
  upstreams: Record<ProcessName, readonly string[]>;
  /**
   * For a door run by an unprivileged user beside the processes (tests, one machine): the
   * directory of its pid file, temporary files and logs. Absent: logs go to stdout and stderr,
   * and the rest to nginx's defaults, as in the container image.
   */
  runtimeDirectory?: string;
  /** nginx worker processes; `auto` is one per core. */
  workers?: number | 'auto';
  /** The processes' settings, which the door's timeouts and caps follow; default: their defaults. */
  processes?: Config;
  /**
   * Where nginx's stream module is, for an nginx that has it apart (Debian's libnginx-mod-stream,
   * `/usr/lib/nginx/modules/ngx_stream_module.so`); absent: built in, as in the official image.
   */
  streamModule?: string;
}

const DEFAULTS = loadConfig({});
/** A parameter's value when routing: any one segment. */
const ANY_SEGMENT = '[^/]+';
/** nginx takes methods of capital letters, `_` and `-`; all safe in JSON. */
const ANY_METHOD = '[A-Z_-]+';
const ROUTE = '$eventide_route';
const ALLOW = '$eventide_allow';

/** `map "$request_method $uri"`: the process that answers each method of each path; else the door's own answer. */
function routeMap(): string[] {
  const lines: string[] = [];
  for (const path of doorPaths()) {
    const routed = templatePattern(path.template, ANY_SEGMENT).slice(1);
    for (const [method, process] of path.methods) {
      const methods = method === 'get' ? '(GET|HEAD)' : method.toUpperCase();
      lines.push(`    ${quoted(`~*^${methods} ${routed}`)} ${process};`);
    }
    const answered = templatePattern(path.template, JSON_SAFE_SEGMENT).slice(1);
    lines.push(`    ${quoted(`~*^OPTIONS ${answered}`)} options;`);
    lines.push(`    ${quoted(`~*^${ANY_METHOD} ${answered}`)} method-not-allowed;`);
  }
  return [
    `  map "$request_method $uri" ${ROUTE} {`,
    // A path the API does not have: the site answers 404, with a problem as every process does.
    '    default site;',
    ...lines,
    '  }',
  ];
}

function allowMap(): string[] {
  return [
    `  map $uri ${ALLOW} {`,
    '    default "";',
    ...doorPaths().map((path) => `    ${quoted(`~*${templatePattern(path.template, JSON_SAFE_SEGMENT)}`)} ${quoted(allowOfPath(path))};`),
    '  }',
  ];
}

/** The caller's correlation id when the processes would take it, else nginx's request id: passed on, logged and answered. */
function correlationMap(): string[] {
  return [
    `  map $http_x_correlation_id ${CORRELATION} {`,
    `    ${quoted(`~${SANE_CORRELATION_ID.source}`)} $http_x_correlation_id;`,
    '    default $request_id;',
    '  }',
  ];
}

function upstreams(options: FrontDoorOptions): string[] {
  // Idle connections to the processes are reused, and dropped before the processes would drop them.
  const keepAliveSeconds = Math.max(1, Math.floor((options.processes ?? DEFAULTS).HTTP_KEEP_ALIVE_TIMEOUT_MS / 1000) - 1);
  return PROCESSES.flatMap((process) => [
    `  upstream ${process} {`,
    '    least_conn;',
    ...options.upstreams[process].map((address) => `    server ${address};`),
    '    keepalive 32;',
    `    keepalive_timeout ${keepAliveSeconds}s;`,
    '  }',
  ]);
}

/**
 * The door's copies of the files the processes mark as the same for everyone (X-Accel-Expires,
 * set by serveStatic in platform/http/static-file.ts; nothing else is kept). A slow reader of
 * Swagger UI's bundle is then served from the door's disk: through the door, 1,000 such readers
 * had held 495 KiB each in the door's connections to the process and 131 KiB each in the
 * process's send queues, for as long as the send timeout let them.
 *
 * One copy per path and encoding (the key holds the encoding, normalised, so that a client
 * cannot make a copy per spelling of its Accept-Encoding); all of them take a few MB, and the
 * bound stops a mistake from filling the disk.
 */
const CACHE_ZONE = 'shared_files';
function cachePath(dir: string | undefined): string {
  const path = dir ? `${dir}/cache` : '/var/cache/nginx/eventide';
  return `  proxy_cache_path ${path} levels=1:2 keys_zone=${CACHE_ZONE}:1m max_size=64m inactive=10m use_temp_path=off;`;
}

/** The encoding the door asks the processes for, one of three: the cache key's second half. */
const ENCODING = '$eventide_encoding';
function encodingMap(): string[] {
  // Named and not refused with q=0 (RFC 9110 12.5.3); brotli first, as the processes prefer it.
  const accepted = (coding: string) => quoted(`~*(^|,)\\s*${coding}\\s*(,|$|;\\s*q=(1|0?\\.\\d*[1-9]))`);
  return [
    `  map $http_accept_encoding ${ENCODING} {`,
    '    default identity;',
    `    ${accepted('br')} br;`,
    `    ${accepted('gzip')} gzip;`,
    '  }',
  ];
}

/** In the location that proxies to the processes: keep what they mark as kept, ask again with its ETag. */
function cacheDirectives(indent: string): string[] {
  return [
    `proxy_cache ${CACHE_ZONE};`,
    `proxy_cache_key "$uri$is_args$args ${ENCODING}";`,
    // The key holds the encoding: one copy per path and encoding, whatever the client's spelling.
    'proxy_ignore_headers Vary;',
    // Many readers of a copy being fetched wait for it, or take the old one while it is renewed.
    'proxy_cache_lock on;',
    'proxy_cache_use_stale updating;',
    'proxy_cache_revalidate on;',
    // A kept answer would repeat the correlation id of the request that fetched it.
    'proxy_hide_header X-Correlation-Id;',
    `add_header X-Correlation-Id ${CORRELATION} always;`,
  ].map((line) => `${indent}${line}`);
}

function files(options: FrontDoorOptions): { main: string[]; http: string[] } {
  const dir = options.runtimeDirectory;
  const log = `escape=json '{"time":"$time_iso8601","correlationId":"${CORRELATION}","method":"$request_method","path":"$uri","status":$status,"process":"$eventide_route","upstream":"$upstream_addr","cache":"$upstream_cache_status","seconds":$request_time}'`;
  if (!dir) {
    return { main: ['error_log stderr warn;'], http: [`  log_format door ${log};`, '  access_log /dev/stdout door;', cachePath(dir)] };
  }
  return {
    main: [`pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`],
    http: [
      `  log_format door ${log};`,
      `  access_log ${dir}/access.log door;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`),
      cachePath(dir),
    ],
  };
}

/**
 * The headers every proxied request carries. nginx gives a location none of the server's
 * proxy_set_header lines once it sets one of its own, so each location gets the whole list.
 */
function forwarded(indent: string, connection: Record<string, string>): string[] {
  const headers = {
    // The processes trust one hop (TRUST_PROXY_HOPS=1): the address, scheme and host the browser used.
    // X-Forwarded-Host is the Host too, whatever the client sent as its own: read as the site's
    // origin, a forged one would pass the Origin check.
    Host: '$http_host',
    'X-Forwarded-Host': '$http_host',
    'X-Forwarded-For': '$proxy_add_x_forwarded_for',
    'X-Forwarded-Proto': '$scheme',
    'X-Correlation-Id': CORRELATION,
    'Accept-Encoding': ENCODING,
    ...connection,
  };
  return Object.entries(headers).map(([name, value]) => `${indent}proxy_set_header ${name} ${value};`);
}

/**
 * Where the clients' connections are taken: a stream (TCP) server that caps them per address,
 * every one counted from its first byte, and hands each to the HTTP server on a local socket with
 * the client's address in a PROXY protocol header. nginx's HTTP `limit_conn` counts a connection
 * only once its request's headers are read, so one address could hold any number that trickle
 * their headers.
 */
function clientListener(options: FrontDoorOptions, processes: Config, inner: string): string[] {
  return [
    'stream {',
    '  limit_conn_zone $binary_remote_addr zone=connections_per_address:10m;',
    '  server {',
    // The processes' bounded send buffer (HTTP_SEND_BUFFER_BYTES), for the clients' connections.
    `    listen ${options.listen}${processes.HTTP_SEND_BUFFER_BYTES > 0 ? ` sndbuf=${processes.HTTP_SEND_BUFFER_BYTES}` : ''};`,
    `    limit_conn connections_per_address ${processes.HTTP_MAX_CONNECTIONS_PER_ADDRESS};`,
    `    proxy_pass unix:${inner};`,
    '    proxy_protocol on;',
    // Its buffer each way, per connection: 8 KiB rather than 16 (1,000 slow readers, 8 MiB less of
    // the door's memory; downloads of Swagger UI's bundle through the door within the noise).
    '    proxy_buffer_size 8k;',
    // Progress or go for the clients' connections (HTTP_SEND_TIMEOUT_MS): one on which nothing was
    // read or written for this long is closed. Event streams send a comment every 15 s and collab
    // pings its WebSockets every COLLAB_CHECK_EVERY_SECONDS (20), so only the idle and the stuck go.
    `    proxy_timeout ${Math.ceil(processes.HTTP_SEND_TIMEOUT_MS / 1000)}s;`,
    // Each way ends on its own (TCP's half-close): a WebSocket the process closes first (a message
    // over COLLAB_MAX_MESSAGE_BYTES) sends its close frame and FIN while the client still sends; ending
    // both at once reset the client before it read that frame (1006, not 1009). proxy_timeout bounds
    // a client that never ends its side.
    '    proxy_half_close on;',
    '  }',
    '}',
  ];
}

/** The HTTP server's own socket, which only the stream server reaches. */
const innerSocket = (options: FrontDoorOptions) => `${options.runtimeDirectory ?? '/var/run'}/nginx-http.sock`;

export function nginxConfig(options: FrontDoorOptions): string {
  const { main, http } = files(options);
  const processes = options.processes ?? DEFAULTS;
  const headerSeconds = Math.ceil(processes.HTTP_HEADERS_TIMEOUT_MS / 1000);
  const inner = innerSocket(options);
  const lines = [
    '# Written by `npm run front-door` from the route table (infra/front-door/nginx.ts); do not edit.',
    ...(options.streamModule ? [`load_module ${options.streamModule};`] : []),
    `worker_processes ${options.workers ?? 'auto'};`,
    ...main,
    'events {',
    // A client's connection is three of nginx's (the stream's two and the HTTP server's): room for
    // many addresses at their cap each.
    '  worker_connections 32768;',
    '}',
    ...clientListener(options, processes, inner),
    'http {',
    ...http,
    '  server_tokens off;',
    // The door's copies go to the stream server by sendfile: the local hop's socket buffer (the
    // kernel's default, 208 KiB, which nginx cannot lower for an accepted local socket) then holds
    // references to the copy's pages, shared by every reader, rather than a copy for each; and no
    // output buffer of nginx's holds them either. For 1,000 slow readers, 97 MiB less of nginx's
    // memory and about 140 MiB less of the host's.
    '  sendfile on;',
    // The processes judge bodies against their own limit (BODY_LIMIT) and answer with a problem; the door only stops what no process would take.
    '  client_max_body_size 10m;',
    `  client_header_timeout ${headerSeconds}s;`,
    `  client_body_timeout ${headerSeconds}s;`,
    // Progress or go, as in the processes (HTTP_SEND_TIMEOUT_MS): a client that takes nothing of an
    // answer for this is reset, which frees its socket's buffers at once, not closed into an orphan.
    `  send_timeout ${Math.ceil(processes.HTTP_SEND_TIMEOUT_MS / 1000)}s;`,
    '  reset_timedout_connection on;',
    // An answer the client takes slowly is held in the door's memory only (8 buffers of a page):
    // never spooled to disk, where 1,000 slow readers had put 679 MiB. The process behind waits
    // for the client instead, under its own send timeout.
    '  proxy_max_temp_file_size 0;',
    '  map $http_upgrade $connection_upgrade {',
    '    default upgrade;',
    "    '' close;",
    '  }',
    ...correlationMap(),
    ...instanceMap(),
    ...encodingMap(),
    ...routeMap(),
    ...allowMap(),
    ...upstreams(options),
    '  server {',
    // Reached from the stream server only, which says whose connection it is.
    `    listen unix:${inner} proxy_protocol;`,
    '    set_real_ip_from unix:;',
    '    real_ip_header proxy_protocol;',
    '    proxy_http_version 1.1;',
    ...forwarded('    ', { Connection: '""' }),
    // A request that never reached a process may go to another; one that did is not sent twice (nginx retries no POST).
    '    proxy_next_upstream error timeout;',
    ...problemPages(),
    // Collaborative editing's WebSocket: any collab process serves any document (their pub/sub is shared).
    `    location = ${COLLAB_PATH} {`,
    '      proxy_pass http://collab;',
    ...forwarded('      ', { Upgrade: '$http_upgrade', Connection: '$connection_upgrade' }),
    '      proxy_read_timeout 120s;',
    '      proxy_send_timeout 120s;',
    // When the process ends an upgraded connection, end ours to the stream server the same way: FIN,
    // then read and drop what the client is still sending (for lingering_time, 30 s at most), rather
    // than close with bytes unread, which resets it. Both this and proxy_half_close were needed:
    // 8 MB messages closed 1006 in 29 of 30 before, 28 of 30 and 29 of 30 with either one alone.
    '      lingering_close always;',
    '    }',
    '    location / {',
    // Only for the door's own answers below: what a process answers keeps its own type.
    '      default_type application/problem+json;',
    `      if (${ROUTE} = options) {`,
    `        add_header Allow ${ALLOW} always;`,
    `        add_header X-Correlation-Id ${CORRELATION} always;`,
    '        return 204;',
    '      }',
    `      if (${ROUTE} = method-not-allowed) {`,
    `        add_header Allow ${ALLOW} always;`,
    `        add_header X-Correlation-Id ${CORRELATION} always;`,
    `        return 405 ${problemBody({ type: 'method-not-allowed', status: 405, title: 'Method not allowed', detail: `$request_method is not supported on $uri; use ${ALLOW}` })};`,
    '      }',
    // The event stream (text/event-stream) turns buffering off itself (X-Accel-Buffering) and sends a heartbeat within this.
    '      proxy_read_timeout 120s;',
    ...cacheDirectives('      '),
    `      proxy_pass http://${ROUTE};`,
    '    }',
    ...problemLocations(),
    '  }',
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

/** The configuration compose runs (infra/compose.yaml): one container per process, reached by its service name. */
export function composeNginxConfig(): string {
  const upstream = (process: ProcessName) => [`${process}:3000`];
  return nginxConfig({
    listen: '80',
    upstreams: { command: upstream('command'), query: upstream('query'), collab: upstream('collab'), site: upstream('site') },
  });
}
