// User writes: POST, PATCH and DELETE /users, and the versioned POST, PUT and DELETE
// /v1/users and /v2/users. Thin: parse, build the command, handle, answer.
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { EventMetadata } from '@eventide/shared/events/catalogue.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import { handle, type CommandOptions, type Hooks } from '../handle.ts';
import { commandOptions, newEntityId } from '../http/command-options.ts';
import { entityId } from '../http/conditions.ts';
import { respondWrite } from '../http/respond.ts';
import { mountVersioned } from '../http/versioning.ts';
import type { UserCommand } from './decide.ts';
import { emailClaims, type EmailClaims } from './email-claim.ts';
import { known, userV1, userV2 } from './representation.ts';
import { normalizeEmail, userAggregate, type UserEvent, type UserState } from './user.ts';

const name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const email = z.email('must be an email address').max(254, 'must be at most 254 characters');
const profile = z.strictObject({ name, email });
const changes = profile.partial().refine((c) => Object.keys(c).length > 0, 'send at least one of: name, email');

export interface UserRoutesDeps {
  store: EventStore;
  bodyLimit: number;
  now?: () => Date;
}

type Represent = (state: ReturnType<typeof known>) => unknown;

/** Claims a new address before the user's event is appended (email-claim.ts says why no release). */
function emailHook(claims: EmailClaims, metadata: Omit<EventMetadata, 'causationId'>): Hooks<UserState, UserEvent> {
  return {
    async beforeAppend(events, before, commandId) {
      const event = events[0];
      const wanted = event?.type === 'user:created' ? event.data.email : event?.type === 'user:updated' ? event.data.changes.email : undefined;
      if (!event || wanted === undefined) return;
      if (before.status === 'active' && normalizeEmail(before.email) === normalizeEmail(wanted)) return;
      await claims.claim(wanted, event.data.userId, commandId, { ...metadata, causationId: commandId });
    },
  };
}

export function userRoutes({ store, bodyLimit, now }: UserRoutesDeps): Router {
  const router = new Router();
  const claims = emailClaims(store, now);

  async function run(userId: string, command: UserCommand, options: CommandOptions) {
    return handle(store, userAggregate, userId, command, options, emailHook(claims, options.metadata));
  }

  const create = (prefix: string, represent: Represent) => async (ctx: Context) => {
    const body = await readBody(ctx, profile, bodyLimit);
    const options = commandOptions(ctx, body);
    const userId = newEntityId(options);
    const result = await run(userId, { type: 'CreateUser', userId, profile: body }, options);
    respondWrite(ctx, result, represent(known(result.state)), { status: 201, location: `${prefix}/users/${userId}` });
  };

  const change = (represent: Represent) => async (ctx: Context) => {
    const userId = entityId(ctx, 'id', 'user');
    const body = await readBody(ctx, changes, bodyLimit);
    const result = await run(userId, { type: 'ChangeUser', changes: body }, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(known(result.state)));
  };

  const replace = (represent: Represent) => async (ctx: Context) => {
    const userId = entityId(ctx, 'id', 'user');
    const body = await readBody(ctx, profile, bodyLimit);
    const result = await run(userId, { type: 'ReplaceUser', profile: body }, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(known(result.state)));
  };

  const remove = (represent: Represent) => async (ctx: Context) => {
    const userId = entityId(ctx, 'id', 'user');
    const result = await run(userId, { type: 'DeleteUser' }, commandOptions(ctx, null));
    respondWrite(ctx, result, represent(known(result.state)));
  };

  mountVersioned(router, 'users', { create, change, replace, remove }, { v1: userV1, v2: userV2 });
  return router;
}
