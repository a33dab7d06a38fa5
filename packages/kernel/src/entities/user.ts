// The user, declared once (entity.ts says what derives from it). Both details are personal:
// null once the person was forgotten (docs/privacy.md), when their events say `forgotten: true`;
// on the bus they travel sealed, and the subscriber SDK opens them.
import { z } from 'zod';
import { text } from '../text.ts';
import { declareEntity, detail } from './entity.ts';

export const USER = declareEntity('user', 'userId', {
  name: detail(z.string().nullable(), text({ min: 1, max: 200 }), { personal: true }),
  email: detail(z.string().nullable(), z.email('must be an email address').max(254, 'must be at most 254 characters'), { personal: true }),
});
