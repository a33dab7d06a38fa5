// Configuration every in-process test app starts with: tests sign up many users from one
// address, so the sign-up limit is out of their way; the tests about that limit set their own.
export const TEST_ENV: Record<string, string> = { RATE_LIMIT_SIGN_UPS_PER_HOUR: '1000000000' };
