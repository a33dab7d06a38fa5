// What GET /health/ready answers (application/health+json, draft-inadarei-api-health-check):
// `status` pass or fail, and each check with what it observed or, when it failed, why. The
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
