#!/usr/bin/env node
// `eventide-dead-letters`: a subscriber's dead letters, from a shell: a Kafka consumer group's
// (dead-letters.ts), or those a subscriber over HTTP or the in-process bus keeps in its file
// (dead-letter-file.ts).
//
//   eventide-dead-letters list  --group mailer [--brokers kafka:9092] [--all] [--json]
//   eventide-dead-letters retry --group mailer <id>… | --every
//   eventide-dead-letters skip  --group mailer <id>… --reason "why"
//   eventide-dead-letters list  --file ./dead-letters.jsonl …   (the same, for a file)
//
// --brokers defaults to KAFKA_BROKERS, --prefix to KAFKA_TOPIC_PREFIX or "eventide.", --by to the
// user running it. Exit code 2 for a mistake in the command, 1 when it cannot be done.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { deadLetters } from './dead-letters.ts';
import { fileDeadLetters } from './dead-letter-file.ts';
import { createLogger } from '@eventide/kernel/log.ts';

const USAGE = `usage: eventide-dead-letters <list|retry|skip> (--group <consumer group> [--brokers host:port,…] [--prefix eventide.] | --file <dead-letter file>)
  list [--all] [--json]          the dead letters not yet retried or skipped (--all: with those)
  retry <id>… | --every          have the subscriber handle them again
  skip <id>… --reason "why"      mark them skipped, saying why
  --timeout <seconds>            give up after this long (default 60)
  --verbose                      say what Kafka's client says (on stdout, as JSON lines)`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    group: { type: 'string' },
    file: { type: 'string' },
    brokers: { type: 'string', default: process.env.KAFKA_BROKERS },
    prefix: { type: 'string', default: process.env.KAFKA_TOPIC_PREFIX ?? 'eventide.' },
    all: { type: 'boolean', default: false },
    every: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    reason: { type: 'string' },
    by: { type: 'string', default: userInfo().username },
    timeout: { type: 'string', default: '60' },
    verbose: { type: 'boolean', default: false },
  },
});
const [command, ...ids] = positionals;
if (!command || !['list', 'retry', 'skip'].includes(command)) fail(command ? `unknown command ${command}` : 'no command');
if (!values.group && !values.file) fail('--group (a Kafka consumer group) or --file (a subscriber’s dead-letter file) is needed');
if (values.group && values.file) fail('--group or --file, not both');
if (values.group && !values.brokers) fail('--brokers is needed with --group (or KAFKA_BROKERS)');
if (command === 'retry' && ids.length === 0 && !values.every) fail('retry needs the ids to retry, or --every');
if (command === 'skip' && (ids.length === 0 || !values.reason?.trim())) fail('skip needs the ids to skip and --reason');
const seconds = Number(values.timeout);
if (!(seconds > 0)) fail('--timeout is a number of seconds above 0');

// A Kafka that does not answer must not keep an operator's shell (or a script) waiting for ever.
setTimeout(() => {
  console.error(`not done within ${seconds} s (--timeout): is ${values.file ?? values.brokers} reachable?`);
  process.exit(1);
}, seconds * 1000).unref();

/** What either kind lists: one letter, and what became of it. */
interface Shown {
  id: string;
  time: string;
  eventType?: string | undefined;
  eventId?: string | undefined;
  attempts: number;
  reason: string;
  resolution?: { action: string; by: string; reason?: string; outcome?: string } | undefined;
}

const letters = values.file
  ? { ...fileDeadLetters(values.file), close: async () => undefined }
  : deadLetters({
      brokers: values.brokers!.split(','),
      groupId: values.group!,
      topicPrefix: values.prefix,
      // Kafka's client retries aloud; the command says what came of it.
      log: createLogger({ name: 'dead-letters', level: values.verbose ? 'debug' : 'silent' }),
    });
const whose = values.file ? `in ${values.file}` : `for group ${values.group}`;
const line = (letter: Shown) =>
  [
    letter.id,
    letter.time,
    letter.eventType ?? '(no type)',
    letter.eventId ?? '(no id)',
    `${letter.attempts} attempts`,
    letter.resolution
      ? `${letter.resolution.action} by ${letter.resolution.by}${letter.resolution.reason ? `: ${letter.resolution.reason}` : ''}${letter.resolution.outcome ? ` (${letter.resolution.outcome})` : ''}`
      : 'open',
    letter.reason.split('\n')[0],
  ].join('  ');
try {
  if (command === 'list') {
    const found: Shown[] = await letters.list({ resolved: values.all });
    if (values.json) console.log(JSON.stringify(found, null, 2));
    else if (found.length === 0) console.log(`no ${values.all ? '' : 'open '}dead letters ${whose}`);
    else for (const letter of found) console.log(line(letter));
  } else if (command === 'retry') {
    const retried = await letters.retry(values.every ? 'all' : ids, values.by);
    console.log(
      values.file
        ? `asked to retry ${retried.length}: the subscriber handles them within a couple of seconds, or when it next starts`
        : `retried ${retried.length}: the group's subscribers handle them again`,
    );
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
