/// <reference lib="dom" />
// One document's page, loaded only when a document opens (its own chunk: the editor's ShareDB
// client is most of it): the editor (document-editor.tsx), the people on the document with sharing
// by email or by name, and its versions (document-versions.tsx).
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { DocumentAccess, DocumentPeople, SharedRole } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { ROLE_MAY, roleIn } from '@eventide/client/collab/roles.ts';
import { TextSession } from '@eventide/client/collab/text-session.ts';
import { api, asProblem } from '../api.ts';
import { Field } from '../form.tsx';
import { Loading, ProblemMessage, SignInFirst, useSubmit } from '../parts.tsx';
import { isAdmin, useSession } from '../session.tsx';
import { DocumentEditor } from './document-editor.tsx';
import { DocumentVersions } from './document-versions.tsx';

export function DocumentPage({ id }: { id: string }) {
  const { session } = useSession();
  const [record, setRecord] = useState<DocumentAccess>();
  const [people, setPeople] = useState<DocumentPeople>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [editing, setEditing] = useState<TextSession>();
  const [version, setVersion] = useState<number>();
  const learnPeople = () => api.documents.people(id).then(setPeople, (error) => setProblem(asProblem(error)));
  const load = () =>
    // The access record carries the title and the parts; the people come by name.
    Promise.all([api.documents.access(id), api.documents.people(id)]).then(
      ([access, on]) => {
        setProblem(undefined);
        setRecord(access);
        setPeople(on);
      },
      (error) => setProblem(asProblem(error)),
    );
  useEffect(() => {
    if (session) void load();
  }, [id, session?.userId]);

  if (session === null) return <SignInFirst what="this document" />;
  if (problem?.status === 404) return <NotStarted id={id} onStarted={load} />;
  if (!session || !people || !record) return problem ? <ProblemMessage problem={problem} /> : <Loading>Loading the document…</Loading>;
  const role = roleIn(record, session.userId);
  // An administrator has no part in it, and may do what its owner may.
  const may = role ? ROLE_MAY[role] : isAdmin(session) ? ROLE_MAY.owner : ROLE_MAY.viewer;
  return (
    <article class="document" aria-labelledby="document-title">
      <p>
        <Link href="/documents">← Your documents</Link>
      </p>
      <h1 id="document-title">
        {record.title ?? id} {!may.edit && <span class="tag">view only</span>}
      </h1>
      <div class="document-layout">
        <DocumentEditor
          id={id}
          userId={session.userId}
          mayEdit={may.edit}
          people={people}
          onStranger={() => void learnPeople()}
          onSession={setEditing}
          onVersion={setVersion}
        />
        <aside class="document-side">
          <People id={id} people={people} mine={may.manage} onChange={setPeople} />
          <DocumentVersions id={id} mayEdit={may.edit} session={editing} now={version} />
        </aside>
      </div>
    </article>
  );
}

/**
 * An id no document has that the caller may open: one nobody has started (whoever starts it owns
 * it, as over the WebSocket), or one not shared with them (starting it is refused).
 */
function NotStarted({ id, onStarted }: { id: string; onStarted: () => void }) {
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const start = () => {
    setBusy(true);
    setProblem(undefined);
    // The editor's own session makes it: it creates a document that has no type yet.
    const starting: TextSession = new TextSession(id, {
      text: () => {},
      state: () => {},
      cursors: () => {},
      readOnly: () => {},
      reloaded: () => {},
      progress: ({ version, pending }) => {
        if (version === 0 || pending) return;
        starting.close();
        onStarted();
      },
      problem: (message, code) => {
        starting.close();
        setBusy(false);
        setProblem(code === 'ERR_FORBIDDEN' ? 'someone else has started it and has not shared it with you; ask them to' : message);
      },
    });
  };
  return (
    <section aria-labelledby="not-started-title">
      <h1 id="not-started-title">No document “{id}” for you</h1>
      <p>Nobody has started a document here, or its owner has not shared it with you.</p>
      {problem && (
        <p class="problem" role="alert">
          It cannot be started: {problem}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={start} disabled={busy}>
          {busy ? 'Starting…' : 'Start it, as its owner'}
        </button>
        <Link href="/documents" class="button secondary">
          Your documents
        </Link>
      </div>
    </section>
  );
}

/** What each part is called where people are listed and chosen. */
const PART_LABELS: Record<SharedRole, string> = { editor: 'can edit', viewer: 'can view' };

function People({
  id,
  people,
  mine,
  onChange,
}: {
  id: string;
  people: DocumentPeople;
  mine: boolean;
  onChange: (p: DocumentPeople) => void;
}) {
  const [who, setWho] = useState('');
  const [part, setPart] = useState<SharedRole>('editor');
  const [notice, setNotice] = useState<string>();
  const nameOf = (name: string | null) => name ?? 'A deleted account';
  const shared: Array<{ person: DocumentPeople['owner']; role: SharedRole }> = [
    ...people.editors.map((person) => ({ person, role: 'editor' as const })),
    ...people.viewers.map((person) => ({ person, role: 'viewer' as const })),
  ];
  const sharing = useSubmit(async () => {
    setNotice(undefined);
    const named = who.trim();
    const after = await api.documents.shareWith(id, { ...(named.includes('@') ? { email: named } : { name: named }), role: part });
    const added = (part === 'editor' ? after.editors : after.viewers).at(-1);
    onChange(after);
    setWho('');
    setNotice(`Shared with ${added?.name ?? 'them'}: they ${PART_LABELS[part]}.`);
  });
  /** A new part for someone, or none (undefined): they can no longer open it. */
  const changing = useSubmit(async (userId: string, name: string, from: SharedRole, to: SharedRole | undefined) => {
    setNotice(undefined);
    if (to === undefined) await api.documents.unshare(id, userId, from);
    else await api.documents.share(id, userId, to);
    onChange(await api.documents.people(id));
    setNotice(to === undefined ? `${name} can no longer open it.` : `${name} ${PART_LABELS[to]} now.`);
  });
  const atField = sharing.problem?.fieldError('email') ?? sharing.problem?.fieldError('name');
  return (
    <section aria-labelledby="people-title">
      <h2 id="people-title">People</h2>
      <ul class="linked">
        <li>
          {nameOf(people.owner.name)} <span class="muted">(owner)</span>
        </li>
        {shared.map(({ person, role }) => (
          <li key={person.userId}>
            <span>
              {nameOf(person.name)} <span class="muted">({PART_LABELS[role]})</span>
            </span>
            {mine && (
              <span class="person-actions">
                <button
                  type="button"
                  class="secondary"
                  disabled={changing.busy}
                  onClick={(event) =>
                    changing.submit(event, person.userId, nameOf(person.name), role, role === 'editor' ? 'viewer' : 'editor')
                  }
                >
                  {role === 'editor' ? 'Make viewer' : 'Let edit'}
                </button>
                <button
                  type="button"
                  class="secondary"
                  disabled={changing.busy}
                  aria-label={`Stop sharing with ${nameOf(person.name)}`}
                  onClick={(event) => changing.submit(event, person.userId, nameOf(person.name), role, undefined)}
                >
                  Stop sharing
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <ProblemMessage problem={changing.problem} />
      {notice && (
        <p class="ok" role="status">
          {notice}
        </p>
      )}
      {mine && (
        <form class="inline" onSubmit={sharing.submit} aria-busy={sharing.busy}>
          <Field
            label="Share with (their email, or the name of someone you already share with)"
            name="person"
            value={who}
            onInput={setWho}
            error={atField}
            autocomplete="off"
            required
          />
          <label class="part">
            They
            <select value={part} onChange={(event) => setPart((event.target as HTMLSelectElement).value as SharedRole)}>
              <option value="editor">{PART_LABELS.editor}</option>
              <option value="viewer">{PART_LABELS.viewer}</option>
            </select>
          </label>
          <button type="submit" disabled={sharing.busy}>
            {sharing.busy ? 'Sharing…' : 'Share'}
          </button>
        </form>
      )}
      {!atField && <ProblemMessage problem={sharing.problem} />}
    </section>
  );
}
