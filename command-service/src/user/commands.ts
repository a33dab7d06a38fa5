// Running a user command: the user's aggregate, with the email claim that must hold across
// streams. Used by the user routes and by sign-in with a provider (which creates users too).
import type { EventMetadata } from '@eventide/shared/events/catalogue.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { normalizeEmail, type UserEvent, type UserState } from '@eventide/shared/models/user/state.ts';
import { handle, type CommandOptions, type Hooks } from '../handle.ts';
import { userAggregate, type UserCommand } from './decide.ts';
import { emailClaims, type EmailClaims } from './email-claim.ts';

/** Runs before a user's address changes to one that is new to them; may refuse by throwing. */
export type BeforeNewAddress = (userId: string) => Promise<void>;

/** Claims a new address before the user's event is appended (email-claim.ts says why no release). */
function emailHook(
  claims: EmailClaims,
  metadata: Omit<EventMetadata, 'causationId'>,
  beforeNewAddress?: BeforeNewAddress,
): Hooks<UserState, UserEvent> {
  return {
    async beforeAppend(events, before, commandId) {
      const event = events[0];
      const wanted =
        event?.type === 'user:created' ? event.data.email : event?.type === 'user:updated' ? event.data.changes.email : undefined;
      if (!event || wanted === undefined) return;
      if (before.status === 'active' && normalizeEmail(before.email) === normalizeEmail(wanted)) return;
      if (event.type === 'user:updated') await beforeNewAddress?.(event.data.userId);
      await claims.claim(wanted, event.data.userId, commandId, { ...metadata, causationId: commandId });
    },
  };
}

/** Runs a user command with the email claim that must hold across streams. */
export function userCommands(store: EventStore, now?: () => Date, claims: EmailClaims = emailClaims(store, now)) {
  return (userId: string, command: UserCommand, options: CommandOptions, beforeNewAddress?: BeforeNewAddress) =>
    handle(store, userAggregate, userId, command, options, emailHook(claims, options.metadata, beforeNewAddress));
}
