// What GET /health/ready answers (application/health+json, draft-inadarei-api-health-check):
// `status` pass or fail, and each check with what it observed or, when it failed, why: to an admin
// and on the metrics port. Anyone else gets each check's status alone (publicReadiness). The
// probes that fill it are the runtime's (service/readiness.ts); the HTTP app serves it.

export interface Observation {
  observedValue?: number;
  observedUnit?: string;
  /** Set by a check that got an answer and still fails it (too far behind). */
  fail?: string;
}

export interface CheckResult extends Omit<Observation, 'fail'> {
  status: 'pass' | 'fail';
  output?: string;
}

export interface Readiness {
  status: 'pass' | 'fail';
  checks: Record<string, CheckResult>;
}

/**
 * Readiness as the public sees it: whether each check passes, without what it observed (the event
 * store's position, how many events it holds) or why it failed (hosts, ports, engines' errors).
 */
export function publicReadiness(readiness: Readiness): Readiness {
  const checks: Record<string, CheckResult> = {};
  for (const [name, check] of Object.entries(readiness.checks)) checks[name] = { status: check.status };
  return { status: readiness.status, checks };
}
