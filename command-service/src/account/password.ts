// A password chosen at sign-up: hashed and recorded in the private account stream before the
// user exists, so a user with a password is never visible without it. A retry with the same
// Idempotency-Key finds its own event and writes nothing.
import { z } from 'zod';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, type ScryptParameters } from '@eventide/shared/auth/password.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { derivedId } from '@eventide/shared/ids.ts';
import { commandIdOf, type CommandOptions } from '../handle.ts';
import { accountStream, appendAccount } from './account.ts';

export const password = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export async function setInitialPassword(
  store: EventStore,
  userId: string,
  chosen: string,
  options: CommandOptions,
  params?: ScryptParameters,
): Promise<void> {
  const commandId = commandIdOf(options.idempotency);
  const eventId = derivedId('password', commandId, userId);
  const existing = await store.readStream(accountStream(userId));
  if (existing.some((e) => e.id === eventId)) return;
  const hash = await hashPassword(chosen, params);
  await appendAccount(store, userId, existing.length - 1, [{ type: 'account:password-set', data: { hash } }], { ...options.metadata, causationId: commandId }, [eventId]);
}
