// Valid event histories for projection tests, made by the write side's own deciders from a list
// of steps, so that every history is one the command service could have written (which is why
// these tests live in infra, where the two sides are put together).
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { Refusal } from '@eventide/kernel/models/refusal.ts';
import { fold } from '@eventide/kernel/models/model.ts';
import type { Decided } from '@eventide/command-service/src/aggregate.ts';
import { orderAggregate, type OrderCommand } from '@eventide/command-service/src/order/decide.ts';
import { productAggregate, type ProductCommand } from '@eventide/command-service/src/product/decide.ts';
import { userAggregate, type UserCommand } from '@eventide/command-service/src/user/decide.ts';
import { ORDER_STATUSES } from '@eventide/kernel/entities/order.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

export type Kind = 'user' | 'product' | 'order';
export interface Step {
  kind: Kind;
  entity: number;
  op: 'create' | 'change' | 'delete';
  seed: number;
}

const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
/** Histories are written with every step allowed, as the seed writes them. */
const SYSTEM: Principal = { type: 'system', name: 'test' };
export const entityId = (kind: Kind, n: number) =>
  `${{ user: 'a', product: 'b', order: 'c' }[kind]}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function userCommand(step: Step, id: string): UserCommand {
  if (step.op === 'create')
    return { type: 'CreateUser', userId: id, profile: { name: `User ${step.seed}`, email: `u${step.entity}@example.com` } };
  if (step.op === 'change') return { type: 'ChangeUser', changes: { name: `User ${step.seed}` } };
  return { type: 'DeleteUser' };
}

function productCommand(step: Step, id: string): ProductCommand {
  const s = step.seed;
  if (step.op === 'create') {
    // Every detail stated, as the API's create states them (the declaration's defaults for the rest).
    const details = PRODUCT.complete({
      name: `Kettle ${s}`,
      description: `Model ${s}`,
      price: { amount: s, currency: 'EUR' },
      category: s % 2 ? 'Kitchen' : null,
    });
    return { type: 'CreateProduct', productId: id, details };
  }
  if (step.op === 'change') return { type: 'ChangeProduct', changes: { price: { amount: s + 1, currency: 'EUR' } } };
  return { type: 'DeleteProduct' };
}

function orderCommand(step: Step, id: string): OrderCommand {
  const s = step.seed;
  if (step.op === 'create') {
    const line = { productId: entityId('product', 0), quantity: 1 + (s % 3), unitPrice: { amount: 100, currency: 'EUR' } };
    return { type: 'CreateOrder', by: SYSTEM, orderId: id, userId: entityId('user', s % 2), lines: s % 2 ? [line] : [] };
  }
  if (step.op === 'change') return { type: 'ChangeOrder', by: SYSTEM, changes: { status: ORDER_STATUSES[s % ORDER_STATUSES.length]! } };
  return { type: 'DeleteOrder', by: SYSTEM };
}

/** What one step decides on its stream so far, by its kind's own aggregate; a Refusal if it refuses. */
function decided(step: Step, stream: readonly RecordedEvent[]): Decided[] {
  const id = entityId(step.kind, step.entity);
  switch (step.kind) {
    case 'user':
      return userAggregate.decide(userCommand(step, id), fold(userAggregate, stream));
    case 'product':
      return productAggregate.decide(productCommand(step, id), fold(productAggregate, stream));
    case 'order':
      return orderAggregate.decide(orderCommand(step, id), fold(orderAggregate, stream));
  }
}

/** The events the steps produce; refused steps (such as an illegal transition) produce none. */
export function historyOf(steps: Step[], start = Date.parse('2026-01-01T00:00:00Z')): RecordedEvent[] {
  const streams = new Map<string, RecordedEvent[]>();
  const log: RecordedEvent[] = [];
  for (const step of steps) {
    const streamId = `${step.kind}-${entityId(step.kind, step.entity)}`;
    const stream = streams.get(streamId) ?? [];
    let events: Decided[];
    try {
      events = decided(step, stream);
    } catch (error) {
      if (error instanceof Refusal) continue;
      throw error;
    }
    for (const event of events) {
      const recorded: RecordedEvent = {
        id: crypto.randomUUID(),
        type: event.type,
        streamId,
        revision: stream.length,
        position: log.length + 1,
        time: new Date(start + log.length * 1000).toISOString(),
        data: event.data,
        metadata,
      };
      stream.push(recorded);
      log.push(recorded);
    }
    streams.set(streamId, stream);
  }
  return log;
}
