import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/given.ts';
import type { UserEvent } from '@eventide/kernel/models/user/state.ts';
import { userAggregate } from './decide.ts';

const given = deciderSpec(userAggregate);
const userId = '0b7c6c6e-6a40-4d7e-9a4f-1f6f0c6a1a01';
const created: UserEvent = { type: 'user:created', data: { userId, name: 'Ann', email: 'ann@example.com' } };
const deleted: UserEvent = { type: 'user:deleted', data: { userId } };
const profile = { name: 'Ann', email: 'ann@example.com' };

describe('user decider', () => {
  describe('CreateUser', () => {
    it('creates a new user', () =>
      given()
        .when({ type: 'CreateUser', userId, profile })
        .then([{ type: 'user:created', data: { userId, ...profile } }]));
    it('refuses when the user exists', () =>
      given(created)
        .when({ type: 'CreateUser', userId, profile })
        .thenRefuses('conflict', /already exists/));
    it('refuses when the user existed and was deleted', () =>
      given(created, deleted)
        .when({ type: 'CreateUser', userId, profile })
        .thenRefuses('conflict', /already exists/));
  });

  describe('ChangeUser', () => {
    it('records only the fields that change', () =>
      given(created)
        .when({ type: 'ChangeUser', changes: { name: 'Ann B', email: 'ann@example.com' } })
        .then([{ type: 'user:updated', data: { userId, changes: { name: 'Ann B' } } }]));
    it('records nothing when nothing changes', () =>
      given(created)
        .when({ type: 'ChangeUser', changes: { name: 'Ann' } })
        .thenNothing());
    it('refuses an unknown user', () =>
      given()
        .when({ type: 'ChangeUser', changes: { name: 'x' } })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a deleted user', () =>
      given(created, deleted)
        .when({ type: 'ChangeUser', changes: { name: 'x' } })
        .thenRefuses('gone', /deleted/));
  });

  describe('ReplaceUser', () => {
    it('replaces every field', () =>
      given(created)
        .when({ type: 'ReplaceUser', profile: { name: 'Bo', email: 'bo@example.com' } })
        .then([{ type: 'user:updated', data: { userId, changes: { name: 'Bo', email: 'bo@example.com' } } }]));
    it('records nothing when the replacement equals the user', () => given(created).when({ type: 'ReplaceUser', profile }).thenNothing());
    it('refuses an unknown user', () =>
      given()
        .when({ type: 'ReplaceUser', profile })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a deleted user', () =>
      given(created, deleted)
        .when({ type: 'ReplaceUser', profile })
        .thenRefuses('gone', /deleted/));
  });

  describe('DeleteUser', () => {
    it('deletes a user', () => given(created).when({ type: 'DeleteUser' }).then([deleted]));
    it('refuses an unknown user', () =>
      given()
        .when({ type: 'DeleteUser' })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a user deleted already', () =>
      given(created, deleted)
        .when({ type: 'DeleteUser' })
        .thenRefuses('gone', /deleted/));
  });
});
