// Path templates as the route table writes them (/users/{id}), and which of two a path belongs to
// when both match it: at the first segment where one has text and the other a parameter, the text
// wins, so /auth/sign-in is never the provider named "sign-in" of /auth/{provider}. The mount
// dispatches and lists Allow by this rule (platform http/mount.ts), and the front door routes by it
// (infra/front-door/routes.ts), so a path means the same thing to every process and to the door.

const segmentsOf = (template: string) => template.split('/').slice(1);
const isParameter = (segment: string) => segment.startsWith('{');

/**
 * Sorts the more specific template first. Templates of different lengths never share a path; they
 * are put shorter first only so that the order is total (a sort needs one).
 */
export function bySpecificity(a: string, b: string): number {
  const [left, right] = [segmentsOf(a), segmentsOf(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = Number(isParameter(left[i]!)) - Number(isParameter(right[i]!));
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** A regular expression (its source) for the paths of a template; `parameter` is what one parameter may hold. */
export function templatePattern(template: string, parameter = '[^/]+'): string {
  const body = segmentsOf(template)
    .map((segment) => (isParameter(segment) ? parameter : segment.replace(REGEX_SPECIAL, '\\$&')))
    .join('/');
  return `^/${body}$`;
}

/** A template's paths, as the routers match them: regardless of case. */
export const pathRegExp = (template: string) => new RegExp(templatePattern(template), 'i');

/** The methods of a path as an Allow header lists them: HEAD with every GET, in the order given. */
export const allowOf = (methods: Iterable<string>) =>
  [...methods].flatMap((method) => (method.toLowerCase() === 'get' ? ['HEAD', 'GET'] : [method.toUpperCase()])).join(', ');

/** Whether some path matches both templates: as many segments, and the same text wherever both have text. */
export function overlap(a: string, b: string): boolean {
  const [left, right] = [segmentsOf(a), segmentsOf(b)];
  return left.length === right.length && left.every((segment, i) => isParameter(segment) || isParameter(right[i]!) || segment === right[i]);
}

/**
 * Finds the one template, of those given, that a path belongs to: the most specific of those
 * matching it, or undefined. Compiled once: it answers every unrouted path a client sends.
 */
export function templateMatcher(templates: readonly string[]): (path: string) => string | undefined {
  const compiled = [...new Set(templates)].sort(bySpecificity).map((template) => ({ template, pattern: pathRegExp(template) }));
  // Most specific first: the first that matches is the one.
  return (path) => compiled.find(({ pattern }) => pattern.test(path))?.template;
}
