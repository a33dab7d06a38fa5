// What each of users/operations.ts's operations takes and answers.
import type { Representations, Shape } from '../../shape.ts';
import { entityId, history, versionedShapes } from '../../shape-parts.ts';
import type { USER_OPERATIONS } from './operations.ts';
import { personalDataExport } from './personal-data.ts';
import { known as knownUser, userV1, userV2 } from './representation.ts';
import { profile, signUpBody, userChanges, userListQuery, userV1Body, userV2Body } from './schemas.ts';

const user = { id: entityId('user') };
const users: Representations<Parameters<typeof knownUser>[0]> = {
  schema: { v1: userV1Body, v2: userV2Body },
  represent: { v1: (state) => userV1(knownUser(state)), v2: (state) => userV2(knownUser(state)) },
};
const userShapes = versionedShapes('user', {
  params: user,
  list: userListQuery,
  create: signUpBody,
  change: userChanges,
  replace: profile,
  representations: users,
  deleted: 'deleted; the user as it was, with deletedAt and nothing personal',
});

export const USER_SHAPES = {
  listUsers: userShapes.list,
  getUser: userShapes.get,
  createUser: userShapes.create,
  changeUser: userShapes.change,
  replaceUser: userShapes.replace,
  deleteUser: userShapes.delete,
  exportPersonalData: {
    params: user,
    answers: {
      200: {
        description:
          'the export, as an attachment, streamed (no Content-Length; cut short, never ended, if a store fails once it started); `missing` names sections held by services in other processes',
        body: personalDataExport,
      },
    },
  },
  userHistory: history(user, 'user'),
} as const satisfies { [K in keyof typeof USER_OPERATIONS]: Shape };
