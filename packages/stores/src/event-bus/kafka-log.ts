// kafkajs logs through our structured logger instead of its own console lines.
import { logLevel, type logCreator } from 'kafkajs';
import type { Logger } from '@eventide/kernel/log.ts';

export function kafkaLogCreator(log: Logger): logCreator {
  const child = log.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }) => {
      const { message, ...rest } = entry;
      const fields = { namespace, ...rest };
      if (level === logLevel.ERROR) child.error(fields, message);
      else if (level === logLevel.WARN) child.warn(fields, message);
      else if (level === logLevel.INFO) child.info(fields, message);
      else child.debug(fields, message);
    };
}
