// Why a server could not listen, said as a fault of the configuration, naming the variables that
// chose where: a port another process holds is the operator's to resolve, not a crash to restart.
import { ConfigError } from './config.ts';

/** The variables that chose a server's address: PORT and HOST, or METRICS_PORT and METRICS_HOST. */
export interface ListenVariables {
  port: string;
  host: string;
}

/**
 * `error` from listen() as a ConfigError naming `variables`, when it is one the configuration can
 * resolve (a port taken or privileged, an address not this machine's); else `error` itself.
 */
export function listenRefusal(error: unknown, variables: ListenVariables, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  const reason =
    code === 'EADDRINUSE'
      ? `${variables.port}: ${where} is taken by another process (EADDRINUSE); stop it, or set ${variables.port} to a free port`
      : code === 'EACCES'
        ? `${variables.port}: this process may not listen on ${where} (EACCES: ports below 1024 need privileges); set ${variables.port} to a port above 1023`
        : code === 'EADDRNOTAVAIL'
          ? `${variables.host}: ${host} is not an address of this machine (EADDRNOTAVAIL); set ${variables.host} to one of its addresses, or 0.0.0.0`
          : undefined;
  return reason ? new ConfigError(`cannot listen:\n  ${reason}`, { cause: error }) : error;
}
