/// <reference lib="dom" />
// A document's versions beside its editor (docs/collab.md#versions): name the version it is at,
// browse the timeline (named versions and the milestones the server keeps), read any of them,
// compare it with now or with another, and restore it: an edit like any other, which everyone's
// editor follows and which Undo takes back.
import { useEffect, useState } from 'preact/hooks';
import type { DocumentTimeline } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { compareTexts } from '@eventide/client/collab/compare.ts';
import type { TextSession } from '@eventide/client/collab/text-session.ts';
import { api, asProblem } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { useLoad } from '../load.tsx';
import { ProblemMessage, useSubmit } from '../parts.tsx';

interface Entry {
  version: number;
  name?: string;
  by?: string | null;
  when?: string;
}

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : undefined);

/** Named versions and milestones as one timeline, newest first. */
function entriesOf(timeline: DocumentTimeline): Entry[] {
  const entries: Entry[] = [
    ...timeline.named.map((named) => ({
      version: named.version,
      name: named.name,
      by: named.by.name,
      when: named.madeAt ?? named.namedAt,
    })),
    ...timeline.milestones.map((milestone) => ({ version: milestone.version, ...(milestone.madeAt ? { when: milestone.madeAt } : {}) })),
  ];
  return entries.sort((a, b) => b.version - a.version);
}

const label = (entry: Entry) => entry.name ?? `Version ${entry.version}`;

export function DocumentVersions({
  id,
  mayEdit,
  session,
  now,
}: {
  id: string;
  mayEdit: boolean;
  session: TextSession | undefined;
  /** The version the editor beside it has reached: "now" moves with it, between reloads of the timeline. */
  now?: number | undefined;
}) {
  const loaded = useLoad(() => api.documents.versions(id), [id]);
  const timeline = loaded.value;
  const [open, setOpen] = useState<Entry>();
  const [notice, setNotice] = useState<string>();
  const naming = useForm({ name: '' }, async ({ name }) => {
    setNotice(undefined);
    const named = await api.documents.nameVersion(id, { name });
    naming.reset();
    setNotice(`Saved version ${named.version} as “${named.name}”.`);
    loaded.reload();
  });

  const entries = timeline ? entriesOf(timeline) : [];
  return (
    <section class="versions" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {mayEdit && (
        <Form form={naming} inline submit="Save version" sending="Saving…">
          <Field label="Name this version" required {...naming.field('name')} />
        </Form>
      )}
      <ProblemMessage problem={loaded.problem} />
      {notice && (
        <p class="ok" role="status">
          {notice}
        </p>
      )}
      {timeline && (
        <>
          <p class="muted">
            <button type="button" class="secondary small" onClick={loaded.reload}>
              Refresh
            </button>{' '}
            Now at version <span class="now">{Math.max(now ?? 0, timeline.current)}</span>. Named versions are kept for good; the others,
            from version {timeline.oldest} on, for as long as the document keeps its history.
          </p>
          <ol class="timeline" reversed>
            {entries.map((entry) => (
              <li key={entry.version} class={entry.name ? 'named' : 'milestone'}>
                <button
                  type="button"
                  class="link"
                  aria-expanded={open?.version === entry.version}
                  onClick={() => setOpen(open?.version === entry.version ? undefined : entry)}
                >
                  {label(entry)}
                </button>
                <span class="muted">
                  {entry.name ? ` version ${entry.version}` : ' saved automatically'}
                  {entry.when ? `, ${when(entry.when)}` : ''}
                  {entry.name ? `, named by ${entry.by ?? 'a deleted account'}` : ''}
                </span>
              </li>
            ))}
          </ol>
          {entries.length === 0 && <p class="muted">No versions yet: name the one it is at now above.</p>}
        </>
      )}
      {open && timeline && (
        <VersionView
          key={open.version}
          id={id}
          entry={open}
          entries={entries}
          mayEdit={mayEdit}
          session={session}
          onRestored={(message) => setNotice(message)}
          onForgotten={() => {
            setOpen(undefined);
            loaded.reload();
          }}
        />
      )}
    </section>
  );
}

/** One version read-only, compared with now or with another version, and what may be done with it. */
function VersionView({
  id,
  entry,
  entries,
  mayEdit,
  session,
  onRestored,
  onForgotten,
}: {
  id: string;
  entry: Entry;
  entries: Entry[];
  mayEdit: boolean;
  session: TextSession | undefined;
  onRestored: (message: string) => void;
  onForgotten: () => void;
}) {
  const [text, setText] = useState<string | null>();
  /** What to compare with: "now", another version's number, or nothing (the text alone). */
  const [against, setAgainst] = useState<string>('');
  const [other, setOther] = useState<string | null>();
  const [problem, setProblem] = useState<ApiProblem>();
  useEffect(() => {
    api.documents.get(id, { version: entry.version }).then(
      (read) => setText(read.text),
      (error) => setProblem(asProblem(error)),
    );
  }, [id, entry.version]);
  useEffect(() => {
    setOther(undefined);
    if (against === '' || against === 'now') return;
    api.documents.get(id, { version: Number(against) }).then(
      (read) => setOther(read.text),
      (error) => setProblem(asProblem(error)),
    );
  }, [id, against]);
  const forgetting = useSubmit(async () => {
    await api.documents.forgetVersion(id, entry.version);
    onForgotten();
  });

  const later = against === 'now' ? (session?.text ?? null) : other;
  return (
    <article class="version-view" aria-labelledby="version-view-title">
      <h3 id="version-view-title">
        {label(entry)} <span class="muted">(read-only)</span>
      </h3>
      <ProblemMessage problem={problem ?? forgetting.problem} />
      <label class="part">
        Compare with
        <select value={against} onChange={(event) => setAgainst((event.target as HTMLSelectElement).value)}>
          <option value="">nothing: show this version</option>
          <option value="now">the text now</option>
          {entries
            .filter((e) => e.version !== entry.version)
            .map((e) => (
              <option key={e.version} value={String(e.version)}>
                {label(e)}
              </option>
            ))}
        </select>
      </label>
      {text === undefined ? (
        <p class="loading">Loading the version…</p>
      ) : against !== '' && later !== undefined ? (
        <Comparison
          before={text ?? ''}
          after={later ?? ''}
          beforeLabel={label(entry)}
          afterLabel={against === 'now' ? 'now' : 'the other version'}
        />
      ) : (
        <pre class="preview" id="version-text">
          {text ?? '(the document did not exist yet)'}
        </pre>
      )}
      <div class="actions">
        {mayEdit && session && text !== undefined && (
          <button
            type="button"
            id="restore"
            onClick={() => {
              session.restore(text ?? '');
              onRestored(`Restored ${label(entry)}: everyone sees it now, and Undo takes it back.`);
            }}
          >
            Restore this version
          </button>
        )}
        {mayEdit && entry.name && (
          <button type="button" class="secondary" disabled={forgetting.busy} onClick={forgetting.submit}>
            Take the name off
          </button>
        )}
      </div>
    </article>
  );
}

/** The later text, with what it added marked and what it took away struck through. */
function Comparison({
  before,
  after,
  beforeLabel,
  afterLabel,
}: {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
}) {
  const changes = compareTexts(before, after);
  return (
    <>
      <p class="muted">
        From {beforeLabel} to {afterLabel}: <ins>added</ins>, <del>removed</del>.
      </p>
      <pre class="preview comparison" id="comparison">
        {changes.map((change, index) =>
          change.kind === 'added' ? (
            <ins key={index}>{change.text}</ins>
          ) : change.kind === 'removed' ? (
            <del key={index}>{change.text}</del>
          ) : (
            change.text
          ),
        )}
      </pre>
    </>
  );
}
