// The tables of sign-in on PostgreSQL: sessions (session-store/postgres.ts), revocations
// (revocations/postgres.ts) and rate-limit counters (rate-limiter-flexible's RateLimiterPostgres,
// in its own shape), made by one component's migration steps so that whichever opens first makes all.
import type pg from 'pg';
import { migrate } from './migrations.ts';

/** The table rate-limiter-flexible counts in; every limit's counters, each under its prefix. */
export const RATE_LIMITS_TABLE = 'rate_limits';

const AUTH_STEPS: readonly string[] = [
  `CREATE TABLE sessions (
     key        text   PRIMARY KEY,
     user_id    text,
     data       json   NOT NULL,
     expires_at bigint NOT NULL
   );
   CREATE INDEX sessions_user ON sessions (user_id);
   CREATE INDEX sessions_expiry ON sessions (expires_at);
   CREATE TABLE revocations (
     id   bigint           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     body json             NOT NULL,
     -- The publisher's clock, in milliseconds with their fractions: which listeners it is for.
     at   double precision NOT NULL,
     -- The feed that published it, which told its own listeners already.
     origin text         NOT NULL
   );
   CREATE INDEX revocations_at ON revocations (at);
   CREATE TABLE ${RATE_LIMITS_TABLE} (
     key    varchar(255) PRIMARY KEY,
     points integer NOT NULL DEFAULT 0,
     expire bigint
   );`,
];

export const migrateAuth = (pool: pg.Pool) => migrate(pool, 'auth', AUTH_STEPS);
