// The front door's own answers (a process down, a body or a request line too large, a path it does
// not route), as application/problem+json like every answer of the processes (docs/errors.md),
// each of a kind the processes name the same problem by (packages/contract/src/problem-types.ts).
import { PROBLEM_TYPES, problemTypeUri, type ProblemType } from '@eventide/contract/problem-types.ts';
import { CORRELATION, JSON_SAFE_SEGMENT, quoted } from './syntax.ts';

/**
 * The request's path for a problem's `instance`, as the processes write it (undecoded): itself when
 * nothing in it needs escaping in JSON and it is not long, else `/`. From the request line, since
 * an error page's internal redirect has changed $uri by then.
 */
export const INSTANCE = '$eventide_instance';
export function instanceMap(): string[] {
  const segment = JSON_SAFE_SEGMENT.replace('-]+', '%-]{0,200}');
  return [
    `  map $request_uri ${INSTANCE} {`,
    '    default /;',
    `    ${quoted(`~^(?<eventide_path>(/${segment}){1,64})(\\?|$)`)} $eventide_path;`,
    '  }',
  ];
}

interface DoorProblem {
  /** Its internal location is `/.door/<name>`. */
  name: string;
  /** The statuses nginx gives that this problem answers. */
  answers: number[];
  /** Its kind (packages/contract/src/problem-types.ts), as the processes name the same problem; `http` for a request no route could take. */
  type: ProblemType;
  status: number;
  title: string;
  detail: string;
  headers?: Record<string, string>;
}

/** The door's own answers, as application/problem+json like every answer of the processes (docs/errors.md). */
const PROBLEMS: DoorProblem[] = [
  {
    name: 'unavailable',
    answers: [502, 504],
    type: 'unavailable',
    status: 503,
    title: 'Service unavailable',
    detail: 'no process of this site answered the request; try again shortly',
    headers: { 'Retry-After': '5' },
  },
  {
    name: 'too-large',
    answers: [413],
    type: 'too-large',
    status: 413,
    title: PROBLEM_TYPES['too-large'].title,
    detail: 'the request body is larger than this site accepts',
  },
  {
    name: 'uri-too-long',
    answers: [414],
    type: 'http',
    status: 414,
    title: 'URI too long',
    detail: 'the request line is longer than this site accepts',
  },
  {
    name: 'headers-too-large',
    answers: [494],
    type: 'http',
    status: 431,
    title: 'Request header fields too large',
    detail: 'a request header is longer than this site accepts',
  },
  // Only the door's own 404: its problems' locations asked for from outside.
  { name: 'not-found', answers: [404], type: 'not-found', status: 404, title: 'Not found', detail: 'nothing is at this address' },
  {
    name: 'bad-request',
    answers: [400],
    type: 'http',
    status: 400,
    title: 'Bad request',
    detail: 'the request is not one this site can read',
  },
];

export function problemBody(problem: Pick<DoorProblem, 'type' | 'status' | 'title' | 'detail'>, instance = '$uri'): string {
  // The door writes variables into these only where they are safe in JSON (ANY_METHOD, JSON_SAFE_SEGMENT, SANE_CORRELATION_ID).
  return `'{"type":"${problemTypeUri(problem.type)}","title":"${problem.title}","status":${problem.status},"detail":"${problem.detail}","instance":"${instance}","correlationId":"${CORRELATION}"}'`;
}

/**
 * Where each problem is answered: an internal location of its own rather than a named one, which
 * nginx cannot enter for a request whose line it could not read (a 10 KB URI, `%00`): it answered
 * those with its own 500 page.
 */
const problemLocation = (problem: DoorProblem) => `/.door/${problem.name}`;

export function problemPages(): string[] {
  return PROBLEMS.map((problem) => `    error_page ${problem.answers.join(' ')} = ${problemLocation(problem)};`);
}

export function problemLocations(): string[] {
  return PROBLEMS.flatMap((problem) => [
    `    location = ${problemLocation(problem)} {`,
    '      internal;',
    '      default_type application/problem+json;',
    `      add_header X-Correlation-Id ${CORRELATION} always;`,
    ...Object.entries(problem.headers ?? {}).map(([name, value]) => `      add_header ${name} ${value} always;`),
    // The path, as the processes' problems name it, where it is safe in JSON (else /: a request
    // nginx could not read, or an unrouted one, may hold anything).
    `      return ${problem.status} ${problemBody(problem, INSTANCE)};`,
    '    }',
  ]);
}
