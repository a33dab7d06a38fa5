#!/usr/bin/env node
// `eventide-dead-letters`: a Kafka consumer group's dead letters, from a shell (dead-letters.ts).
//
//   eventide-dead-letters list  --brokers kafka:9092 --group mailer [--all] [--json]
//   eventide-dead-letters retry --brokers kafka:9092 --group mailer <id>… | --every
//   eventide-dead-letters skip  --brokers kafka:9092 --group mailer <id>… --reason "why"
//
// --brokers defaults to KAFKA_BROKERS, --prefix to KAFKA_TOPIC_PREFIX or "eventide.", --by to the
// user running it. Exit code 2 for a mistake in the command, 1 when Kafka fails it.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { deadLetters, type DeadLetterRecord } from './dead-letters.ts';

const USAGE = `usage: eventide-dead-letters <list|retry|skip> --group <consumer group> [--brokers host:port,…] [--prefix eventide.]
  list [--all] [--json]          the group's dead letters not yet retried or skipped (--all: with those)
  retry <id>… | --every          put them back for the group's subscribers to handle again
  skip <id>… --reason "why"      mark them skipped, saying why`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    group: { type: 'string' },
    brokers: { type: 'string', default: process.env.KAFKA_BROKERS },
    prefix: { type: 'string', default: process.env.KAFKA_TOPIC_PREFIX ?? 'eventide.' },
    all: { type: 'boolean', default: false },
    every: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    reason: { type: 'string' },
    by: { type: 'string', default: userInfo().username },
  },
});
const [command, ...ids] = positionals;
if (!command || !['list', 'retry', 'skip'].includes(command)) fail(command ? `unknown command ${command}` : 'no command');
if (!values.group) fail('--group is needed: the subscriber’s consumer group');
if (!values.brokers) fail('--brokers is needed (or KAFKA_BROKERS)');
if (command === 'retry' && ids.length === 0 && !values.every) fail('retry needs the ids to retry, or --every');
if (command === 'skip' && (ids.length === 0 || !values.reason?.trim())) fail('skip needs the ids to skip and --reason');

const letters = deadLetters({ brokers: values.brokers.split(','), groupId: values.group, topicPrefix: values.prefix });
const line = (letter: DeadLetterRecord) =>
  [
    letter.id,
    letter.time,
    letter.eventType ?? '(no type)',
    letter.eventId ?? '(no id)',
    `${letter.attempts} attempts`,
    letter.resolution
      ? `${letter.resolution.action} by ${letter.resolution.by}${letter.resolution.reason ? `: ${letter.resolution.reason}` : ''}`
      : 'open',
    letter.reason.split('\n')[0],
  ].join('  ');
try {
  if (command === 'list') {
    const found = await letters.list({ resolved: values.all });
    if (values.json) console.log(JSON.stringify(found, null, 2));
    else if (found.length === 0) console.log(`no ${values.all ? '' : 'open '}dead letters for group ${values.group}`);
    else for (const letter of found) console.log(line(letter));
  } else if (command === 'retry') {
    const retried = await letters.retry(values.every ? 'all' : ids, values.by);
    console.log(`retried ${retried.length}: the group's subscribers handle them again`);
  } else {
    const skipped = await letters.skip(ids, values.reason!.trim(), values.by);
    console.log(`skipped ${skipped.length}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await letters.close();
}
