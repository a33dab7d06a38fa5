// The front door's routing table, derived from the API's route table (operations.ts): every
// concrete path the API serves (each version prefix spelled out), the process that answers each
// of its methods, and the methods to list in Allow. nginx.ts writes it as nginx maps.
import { OPERATIONS, type Method, type Operation } from '@eventide/contract/operations.ts';
import { PROCESS_OF, type ProcessName } from './topology.ts';

export interface DoorPath {
  /** As the table writes it, with its version prefix: /v1/users/{id}. */
  template: string;
  /** Which process answers each method the path has. */
  methods: Map<Method, ProcessName>;
}

const PREFIX = { unversioned: '', v2: '/v2', v1: '/v1' } as const;

function concretePaths(operation: Operation): string[] {
  return (operation.versions ?? ['unversioned']).map((version) => `${PREFIX[version]}${operation.path}`);
}

const segments = (template: string) => template.split('/').slice(1);
const isParameter = (segment: string) => segment.startsWith('{');

/**
 * A path with a literal segment where another has a parameter comes first, so that the first
 * pattern a request matches is the one it means: /auth/sign-in before /auth/{provider}.
 */
function bySpecificity(a: DoorPath, b: DoorPath): number {
  const [left, right] = [segments(a.template), segments(b.template)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = Number(isParameter(left[i]!)) - Number(isParameter(right[i]!));
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Every concrete path of the route table, most specific first. Two processes on one method and path is a mistake in the table, and throws. */
export function doorPaths(operations: Record<string, Operation> = OPERATIONS): DoorPath[] {
  const paths = new Map<string, DoorPath>();
  for (const operation of Object.values(operations)) {
    for (const template of concretePaths(operation)) {
      const path = paths.get(template) ?? { template, methods: new Map() };
      paths.set(template, path);
      const process = PROCESS_OF[operation.service];
      const taken = path.methods.get(operation.method);
      if (taken && taken !== process)
        throw new Error(`${operation.method.toUpperCase()} ${template} is served by both ${taken} and ${process}`);
      path.methods.set(operation.method, process);
    }
  }
  return [...paths.values()].sort(bySpecificity);
}

/** The methods a path answers, as the API's own Allow header lists them (HEAD with every GET). */
export function allowOf(path: DoorPath): string {
  return [...path.methods.keys()].flatMap((method) => (method === 'get' ? ['HEAD', 'GET'] : [method.toUpperCase()])).join(', ');
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * A regular expression for a path template. `parameter` is what one parameter may hold: any
 * segment when routing (the process then judges it), and only characters that need no escaping
 * in JSON where the door writes the path into an answer of its own.
 */
export function pathPattern(template: string, parameter: string): string {
  const body = segments(template)
    .map((segment) => (isParameter(segment) ? parameter : segment.replace(REGEX_SPECIAL, '\\$&')))
    .join('/');
  return `^/${body}$`;
}
