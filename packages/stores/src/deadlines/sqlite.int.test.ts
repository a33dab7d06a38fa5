import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadlineScheduleContract } from './contract.ts';
import { openSqliteDeadlineSchedule } from './sqlite.ts';

deadlineScheduleContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-deadlines-'));
  const path = join(dir, 'read.db');
  const schedule = openSqliteDeadlineSchedule(path);
  return {
    schedule,
    another: async () => openSqliteDeadlineSchedule(path),
    async dispose() {
      await schedule.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
