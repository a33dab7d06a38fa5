// Configuration every in-process test app starts with: tests sign up many users from one
// address, so the limits per address on sign-ups and on answers about accounts are out of their
// way, and read as fast as they can from one client, so the read budget is off; the tests about
// those limits set their own.
export const TEST_ENV: Record<string, string> = {
  RATE_LIMIT_SIGN_UPS_PER_HOUR: '1000000000',
  RATE_LIMIT_ACCOUNT_ANSWERS_PER_HOUR: '1000000000',
  RATE_LIMIT_READ_MS_PER_SECOND: '0',
};
