// The steps a page offers (stepsFor) are exactly those the decider takes (requireStep), for every
// status, target and actor: the web app and the server read one rule.
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../entities/order.ts';
import type { Principal } from '../principal.ts';
import { isRefusal } from '../refusal.ts';
import { ORDER_PATH, requireStep, stepsFor } from './life-cycle.ts';

const customerId = 'c0000000-0000-4000-8000-000000000001';
const actors: Record<string, Principal> = {
  customer: { type: 'user', userId: customerId, admin: false },
  admin: { type: 'user', userId: 'a0000000-0000-4000-8000-000000000002', admin: true },
  stranger: { type: 'user', userId: 'b0000000-0000-4000-8000-000000000003', admin: false },
  system: { type: 'system', name: 'test' },
};

describe('the order life cycle', () => {
  it('offers each actor exactly the steps it accepts from them', () => {
    for (const [name, who] of Object.entries(actors)) {
      for (const status of ORDER_STATUSES) {
        for (const lineCount of [0, 1]) {
          const order = { userId: customerId, status, lineCount };
          const offered = stepsFor(order, who).map((step) => step.to);
          const accepted = ORDER_STATUSES.filter((to) => {
            if (to === status) return false;
            try {
              requireStep(order, to, who);
              return true;
            } catch (error) {
              if (!isRefusal(error)) throw error;
              return false;
            }
          });
          expect(offered, `${name} on a ${status} order with ${lineCount} lines`).toEqual(accepted);
        }
      }
    }
  });

  it('lets the customer place and cancel, and only an admin record payment, shipment and delivery', () => {
    const customer = actors.customer!;
    const admin = actors.admin!;
    const at = (status: (typeof ORDER_STATUSES)[number]) => ({ userId: customerId, status, lineCount: 1 });
    expect(stepsFor(at('draft'), customer).map((s) => s.name)).toEqual(['place', 'cancel']);
    expect(stepsFor(at('placed'), customer).map((s) => s.name)).toEqual(['cancel']);
    expect(stepsFor(at('paid'), customer).map((s) => s.name)).toEqual(['cancel']);
    expect(stepsFor(at('shipped'), customer)).toEqual([]);
    expect(stepsFor(at('placed'), admin).map((s) => s.name)).toEqual(['pay', 'cancel']);
    expect(stepsFor(at('paid'), admin).map((s) => s.name)).toEqual(['ship', 'cancel']);
    expect(stepsFor(at('shipped'), admin).map((s) => s.name)).toEqual(['deliver']);
  });

  it('tells a stranger nothing: no steps, and every step refused as if the order did not exist', () => {
    const stranger = actors.stranger!;
    for (const status of ORDER_STATUSES) {
      expect(stepsFor({ userId: customerId, status, lineCount: 1 }, stranger)).toEqual([]);
      for (const to of ORDER_STATUSES.filter((s) => s !== status)) {
        expect(() => requireStep({ userId: customerId, status, lineCount: 1 }, to, stranger)).toThrow(/does not exist/);
      }
    }
  });

  it('draws the way from draft to delivered from the steps', () => {
    expect(ORDER_PATH).toEqual(['draft', 'placed', 'paid', 'shipped', 'delivered']);
  });
});
