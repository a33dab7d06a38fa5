// The contract every DeadlineSchedule adapter passes.
import { describe, expect, it } from 'vitest';
import type { DeadlineSchedule, ScheduledDeadline } from './port.ts';

export interface ScheduleHarness {
  schedule: DeadlineSchedule;
  /** Another handle on the same schedule, as a second process would have. */
  another(): Promise<DeadlineSchedule>;
  dispose(): Promise<void>;
}

const row = (subject: string, at: number, extra: Partial<ScheduledDeadline> = {}): ScheduledDeadline => ({
  key: `payment-deadline-${subject}`,
  process: 'payment-deadline',
  subject,
  next: 'expire',
  at,
  deadline: at,
  ...extra,
});

export function deadlineScheduleContract(name: string, open: () => Promise<ScheduleHarness>): void {
  describe(`DeadlineSchedule contract: ${name}`, () => {
    async function withSchedule(body: (harness: ScheduleHarness) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness);
      } finally {
        await harness.dispose();
      }
    }

    it('gives what is due, earliest first, up to a limit, and when the next is due', () =>
      withSchedule(async ({ schedule }) => {
        expect(await schedule.earliest()).toBeUndefined();
        await schedule.put([row('c', 3_000), row('a', 1_000, { next: 'remind', deadline: 5_000 }), row('b', 2_000)], []);
        expect(await schedule.earliest()).toBe(1_000);
        expect((await schedule.due(2_000, 10)).map((r) => r.subject)).toEqual(['a', 'b']);
        expect((await schedule.due(9_000, 2)).map((r) => r.subject)).toEqual(['a', 'b']);
        expect(await schedule.due(999, 10)).toEqual([]);
        expect((await schedule.due(1_000, 10))[0]).toEqual(row('a', 1_000, { next: 'remind', deadline: 5_000 }));
        expect(await schedule.count()).toBe(3);
      }));

    it('moves a row and takes rows off in one write, and another handle sees it', () =>
      withSchedule(async ({ schedule, another }) => {
        await schedule.put([row('a', 1_000, { next: 'remind', deadline: 5_000 }), row('b', 2_000)], []);
        await schedule.put([row('a', 5_000)], ['payment-deadline-b', 'payment-deadline-never-there']);
        const other = await another();
        try {
          expect((await other.due(10_000, 10)).map((r) => [r.subject, r.next, r.at])).toEqual([['a', 'expire', 5_000]]);
          expect(await other.earliest()).toBe(5_000);
        } finally {
          await other.close();
        }
      }));

    it('lists rows in the order they are due, page by page', () =>
      withSchedule(async ({ schedule }) => {
        await schedule.put([row('b', 2_000), row('a', 2_000), row('c', 1_000)], []);
        const first = await schedule.list({ limit: 2 });
        expect(first.map((r) => r.subject)).toEqual(['c', 'a']);
        const last = first[first.length - 1]!;
        expect((await schedule.list({ after: { at: last.at, key: last.key }, limit: 2 })).map((r) => r.subject)).toEqual(['b']);
      }));
  });
}
