/// <reference lib="dom" />
// The operator's console (docs/operations.md#the-console), for admins: each follower of the log
// with where it has got and what it parked, followed live; the parked events with why, to retry
// once their cause is fixed or skip with a reason; the process's readiness; the pending deadlines
// (docs/deadlines.md); the longest streams; and a stream's events, personal fields masked.
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Followers, ParkedEvent, PendingDeadline, StreamEvent } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api, asProblem } from '../api.ts';
import { Shown, useLoad } from '../load.tsx';
import { Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { type Column, Table } from '../table.tsx';
import { isAdmin, useSession } from '../session.tsx';

/** The followers as GET /admin/followers/live sends them, and whether the stream is open. */
function useFollowers(): { followers: Followers | undefined; live: boolean } {
  const [followers, setFollowers] = useState<Followers>();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const source = new EventSource(api.operations.followersLiveUrl());
    source.addEventListener('followers', (event) => setFollowers(JSON.parse((event as MessageEvent<string>).data) as Followers));
    source.onopen = () => setLive(true);
    source.onerror = () => setLive(false);
    return () => source.close();
  }, []);
  return { followers, live };
}

/** GET /health/ready as the console shows it: each check that failed, with why. */
function Readiness({ changed }: { changed: unknown }) {
  const [failing, setFailing] = useState<Array<[string, string]>>();
  useEffect(() => {
    void fetch('/health/ready')
      .then((answer) => answer.json() as Promise<{ checks: Record<string, { status: string; output?: string }> }>)
      .then((ready) =>
        setFailing(
          Object.entries(ready.checks).flatMap(([name, check]) => (check.status === 'pass' ? [] : [[name, check.output ?? 'failed']])),
        ),
      )
      .catch(() => setFailing([['readiness', 'the process did not answer']]));
  }, [changed]);
  if (!failing) return null;
  if (failing.length === 0) return <p class="ok">Ready: every check passes.</p>;
  return (
    <div class="problem" role="alert">
      <strong>Not ready.</strong>
      <ul>
        {failing.map(([name, output]) => (
          <li key={name}>
            {name}:{' '}
            {output.includes('; ') ? (
              <ul>
                {output.split('; ').map((part) => (
                  <li key={part}>{part}</li>
                ))}
              </ul>
            ) : (
              output
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

const FOLLOWER_COLUMNS: Column<Followers['followers'][number]>[] = [
  {
    header: 'Follower',
    namesRow: true,
    cell: (f) => (
      <>
        {f.name}
        {f.generation !== undefined && <small> (generation {f.generation})</small>}
      </>
    ),
  },
  { header: 'Position', cell: (f) => f.position },
  { header: 'Behind', cell: (f) => f.behind },
  { header: 'Parked', cell: (f) => f.parked, class: (f) => (f.parked > 0 ? 'warn' : undefined) },
  { header: 'Held behind them', cell: (f) => f.held },
];

function SkipForm({ event, onDone }: { event: ParkedEvent; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const skipping = useSubmit(async () => {
    await api.operations.skip({ follower: event.follower, position: event.position, reason });
    onDone();
  });
  const id = `skip-${event.follower}-${event.position}`;
  return (
    <form onSubmit={skipping.submit} class="inline" aria-label={`Skip the event at position ${event.position}`}>
      <label for={id}>Why skip it</label>
      <input id={id} name="reason" required minLength={3} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
      <button type="submit" class="secondary" disabled={skipping.busy}>
        Skip
      </button>
      <ProblemMessage problem={skipping.problem} />
    </form>
  );
}

function ParkedTable({ changed }: { changed: unknown }) {
  const parked = useLoad(() => api.operations.parked({ limit: 100 }).then((page) => page.items), [changed]);
  const [noted, setNoted] = useState<string>();
  const retrying = useSubmit(async (event?: ParkedEvent) => {
    const { requested } = await api.operations.retry(event ? { follower: event.follower, position: event.position } : {});
    setNoted(`Asked to retry ${requested} parked event${requested === 1 ? '' : 's'}: their followers try within a second or two.`);
    parked.reload();
  });
  const columns: Column<ParkedEvent>[] = [
    { header: 'Position', cell: (event) => event.position },
    { header: 'Follower', cell: (event) => event.follower },
    {
      header: 'Event',
      cell: (event) => (
        <>
          {event.type} of <Link href={`/operations/streams/${encodeURIComponent(event.streamId)}`}>{event.streamId}</Link> (revision{' '}
          {event.revision})
        </>
      ),
    },
    { header: 'Why', cell: (event) => event.reason },
    { header: 'Attempts', cell: (event) => event.attempts },
    {
      header: 'Action',
      cell: (event) =>
        event.request ? (
          <span>{event.request.action} asked by an operator</span>
        ) : event.behind === undefined ? (
          <>
            <button type="button" class="secondary" disabled={retrying.busy} onClick={(e) => void retrying.submit(e, event)}>
              Retry
            </button>
            <SkipForm event={event} onDone={parked.reload} />
          </>
        ) : (
          <span>waits behind {event.behind}</span>
        ),
    },
  ];
  return (
    <Shown loaded={parked} loading="Loading parked events…">
      {(events) =>
        events.length === 0 ? (
          <p>Nothing is parked: every follower handled every event.</p>
        ) : (
          <>
            <p>
              <button type="button" disabled={retrying.busy} onClick={(e) => void retrying.submit(e)}>
                Retry all
              </button>
            </p>
            {noted && (
              <p role="status" class="ok">
                {noted}
              </p>
            )}
            <ProblemMessage problem={retrying.problem} />
            <Table label="Parked events" rows={events} columns={columns} rowKey={(event) => `${event.follower}-${event.position}`} />
          </>
        )
      }
    </Shown>
  );
}

const NEXT_STEP: Record<string, string> = {
  remind: 'reminder',
  expire: 'cancel if unpaid',
  cancel: 'cancellation asked again',
};

const DEADLINE_COLUMNS: Column<PendingDeadline>[] = [
  {
    header: 'Order',
    namesRow: true,
    cell: (d) => <Link href={`/operations/streams/${encodeURIComponent(`${d.process}-${d.subject}`)}`}>{d.subject}</Link>,
  },
  { header: 'Next', cell: (d) => `${NEXT_STEP[d.next] ?? d.next}, ${new Date(d.nextAt).toLocaleString()}` },
  { header: 'Deadline', cell: (d) => new Date(d.deadline).toLocaleString() },
];

/** The pending deadlines, the next due first: reloaded when the deadlines follower moves. */
function PendingDeadlines({ changed }: { changed: unknown }) {
  const deadlines = useLoad(() => api.operations.deadlines({ limit: 20 }), [changed]);
  return (
    <Shown loaded={deadlines} loading="Loading deadlines…">
      {(shown) =>
        shown.total === 0 ? (
          <p>No deadline is pending: every placed order has been paid or cancelled.</p>
        ) : (
          <>
            <p>
              {shown.total} pending{shown.total > shown.items.length ? `; the first ${shown.items.length} due` : ''}. An order placed and
              not paid by its deadline is cancelled by the system.
            </p>
            <Table label="Pending deadlines" rows={shown.items} columns={DEADLINE_COLUMNS} rowKey={(d) => `${d.process}-${d.subject}`} />
          </>
        )
      }
    </Shown>
  );
}

function LongestStreams() {
  const streams = useLoad(() => api.operations.streams({ limit: 10 }), []);
  return (
    <Shown loaded={streams} loading="Loading streams…">
      {(shown) =>
        !shown.available ? (
          <p>This event store cannot say which streams are longest.</p>
        ) : shown.items.length === 0 ? (
          <p>No stream has 32 events yet.</p>
        ) : (
          <ol aria-label="Longest streams">
            {shown.items.map((s) => (
              <li key={s.streamId}>
                <Link href={`/operations/streams/${encodeURIComponent(s.streamId)}`}>{s.streamId}</Link>: {s.events} events
              </li>
            ))}
          </ol>
        )
      }
    </Shown>
  );
}

export function OperationsPage() {
  const { session } = useSession();
  const { followers, live } = useFollowers();
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  // Parked counts and positions move together: a change reloads the parked list and readiness.
  const changed = followers && JSON.stringify(followers.followers.map((f) => [f.parked, f.held]));
  return (
    <section aria-labelledby="operations-title">
      <h1 id="operations-title">Operations</h1>
      <Readiness changed={changed} />
      <h2>
        Followers of the log <span class={live ? 'live-badge live' : 'live-badge'}>{live ? 'Live' : 'Reconnecting…'}</span>
      </h2>
      {followers ? (
        <>
          <p>The log holds {followers.head} events.</p>
          <Table label="Followers of the log" rows={followers.followers} columns={FOLLOWER_COLUMNS} rowKey={(f) => f.name} />
          {followers.rebuild && (
            <p>
              A rebuild is filling generation {followers.rebuild.generation}: at position {followers.rebuild.position} of {followers.head}.
            </p>
          )}
        </>
      ) : (
        <Loading>Loading the followers…</Loading>
      )}
      <h2>Parked events</h2>
      <ParkedTable changed={changed} />
      <h2>Pending deadlines</h2>
      <PendingDeadlines changed={followers?.followers.find((f) => f.name === 'deadlines')?.position} />
      <h2>Longest streams</h2>
      <LongestStreams />
    </section>
  );
}

const EVENT_COLUMNS: Column<StreamEvent>[] = [
  { header: 'Revision', cell: (event) => event.revision },
  { header: 'Position', cell: (event) => event.position },
  {
    header: 'Event',
    cell: (event) => (
      <>
        {event.type} v{event.schemaVersion}
        {event.unreadable && <p class="warn">{event.unreadable}</p>}
      </>
    ),
  },
  { header: 'When', cell: (event) => new Date(event.time).toLocaleString() },
  {
    header: 'Data',
    cell: (event) => (
      <>
        <code>{JSON.stringify(event.data)}</code>
        {event.masked.length > 0 && <small> masked: {event.masked.join(', ')}</small>}
      </>
    ),
  },
];

export function StreamPage({ streamId }: { streamId: string }) {
  const { session } = useSession();
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [next, setNext] = useState<string | null>();
  const [problem, setProblem] = useState<ApiProblem>();
  const load = (cursor?: string) =>
    void api.operations.stream(streamId, { limit: 50, ...(cursor ? { cursor } : {}) }).then(
      (page) => {
        setEvents((shown) => (cursor ? [...shown, ...page.items] : page.items));
        setNext(page.nextCursor);
      },
      (error) => setProblem(asProblem(error)),
    );
  useEffect(() => {
    if (isAdmin(session)) load();
  }, [streamId, session?.userId]);
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  return (
    <section aria-labelledby="stream-title">
      <h1 id="stream-title">Stream {streamId}</h1>
      <p>
        <Link href="/operations">Back to operations</Link>. Personal fields are masked.
      </p>
      <ProblemMessage problem={problem} />
      {next === undefined && !problem && <Loading>Loading events…</Loading>}
      <Table label={`Events of ${streamId}`} rows={events} columns={EVENT_COLUMNS} rowKey={(event) => event.position} />
      {next && (
        <button type="button" class="secondary" onClick={() => load(next)}>
          More events
        </button>
      )}
    </section>
  );
}
