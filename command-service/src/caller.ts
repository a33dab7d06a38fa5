// Who asks a use case (of identity/, and the CLI's) to act, in its own terms: the key its password
// hashing is queued and limited under (the signed-in user, else the address), the address the
// sign-in guard counts failures for, a signal that the caller has gone, and what its events say
// of it. The HTTP handlers make one from a request; the CLI and the seed make their own.
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';

export interface Caller {
  /** The fair queue's and the limits' key: `user:<id>` or `ip:<address>` (rate-limit.ts's clientKey). */
  key: string;
  ip: string;
  signal?: AbortSignal | undefined;
  metadata: Omit<EventMetadata, 'causationId'>;
}
