// Running a user command: the user's aggregate, with the email claim that must hold across
// streams. Used by the user routes and by sign-in with a provider (which creates users too).
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { normalizeEmail, type UserEvent, type UserState } from '@eventide/kernel/models/user/state.ts';
import { handle, type CommandOptions, type Hooks } from '../handle.ts';
import { userAggregate, type UserCommand } from './decide.ts';
import type { ClaimNames } from '../claims.ts';
import { emailClaims, type EmailClaims } from './email-claim.ts';

/** Runs before a user's address changes to one that is new to them; may refuse by throwing. */
export type BeforeNewAddress = (userId: string) => Promise<void>;

/** The address a user event gives its user when it is new to them: what must be claimed first. */
function newAddress(events: UserEvent[], before: UserState): string | undefined {
  const event = events[0];
  const wanted = event?.type === 'user:created' ? event.data.email : event?.type === 'user:updated' ? event.data.changes.email : undefined;
  if (wanted === undefined || wanted === null) return undefined;
  return before.status === 'active' && before.email !== null && normalizeEmail(before.email) === normalizeEmail(wanted)
    ? undefined
    : wanted;
}

/**
 * Claims a new address in the same commit as the user's event (email-claim.ts says why no release);
 * on EventStoreDB, which writes one stream at a time, just before it.
 */
function emailHook(
  claims: EmailClaims,
  metadata: Omit<EventMetadata, 'causationId'>,
  beforeNewAddress?: BeforeNewAddress,
): Hooks<UserState, UserEvent> {
  return {
    async beforeAppend(events, before) {
      if (events[0]?.type === 'user:updated' && newAddress(events, before) !== undefined) await beforeNewAddress?.(events[0].data.userId);
    },
    async appendFirst(events, before, commandId, attempt) {
      const wanted = newAddress(events, before);
      if (wanted === undefined) return [];
      const claim = await claims.plan(
        wanted,
        events[0]!.data.userId,
        commandId,
        { ...metadata, causationId: commandId },
        { firstTry: attempt === 1 },
      );
      return claim ? [claim] : [];
    },
  };
}

/** Runs a user command with the email claim that must hold across streams. */
export function userCommands(store: EventStore, names: ClaimNames, now?: () => Date, claims: EmailClaims = emailClaims(store, names, now)) {
  return (userId: string, command: UserCommand, options: CommandOptions, beforeNewAddress?: BeforeNewAddress) =>
    handle(store, userAggregate, userId, command, options, emailHook(claims, options.metadata, beforeNewAddress));
}
