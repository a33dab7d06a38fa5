/// <reference lib="dom" />
// The collaborative editor on a document's page (docs/collab.md#the-editor): the text, bound to
// the document over the /collab WebSocket (text-session.ts), everyone's cursor and selection in
// their colour with their name, who is here now (active or idle), and undo and redo of one's own
// edits. A viewer reads and follows, and is not offered to type.
import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DocumentPeople } from '@eventide/client/api-client.ts';
import { moveRange, TextSession, type Cursor, type SessionState } from '@eventide/client/collab/text-session.ts';
import type { TextEdit } from '@eventide/client/collab/text-edit.ts';
import { api } from '../api.ts';

const STEP_HINTS = { undo: 'Undo your last change (Ctrl+Z); others’ changes stay', redo: 'Redo (Ctrl+Shift+Z)' };

/** No keystroke, click or caret move for this long, or a hidden tab: shown to the others as idle. */
const IDLE_AFTER_MS = 60_000;

/** Ten colours told apart at a glance, each dark enough for white label text. */
const COLOURS = ['#d1495b', '#00798c', '#b5651d', '#3d8b37', '#8d6cab', '#2e4057', '#c2185b', '#5d4037', '#00838f', '#6a7f00'];

/** A colour from the id alone, for someone the document's people do not list (an administrator looking in). */
const hashedColour = (userId: string) => COLOURS[[...userId].reduce((sum, c) => sum + c.charCodeAt(0), 0) % COLOURS.length]!;

/**
 * One colour per person, the same on every screen, and different for each of a document's people
 * (up to ten): by their place among the owner, the editors and the viewers, as the server lists them.
 */
export function coloursOf(people: DocumentPeople): (userId: string) => string {
  const places = new Map([people.owner, ...people.editors, ...people.viewers].map((person, at) => [person.userId, at]));
  return (userId) => {
    const place = places.get(userId);
    return place === undefined ? hashedColour(userId) : COLOURS[place % COLOURS.length]!;
  };
}

/** Carets closer than this many characters on one line would put their name labels over each other: the later one's goes under the line. */
const LABEL_CHARACTERS = 14;

export interface EditorProps {
  id: string;
  userId: string;
  mayEdit: boolean;
  people: DocumentPeople;
  /** Someone is here whom `people` does not name (shared with since, or an administrator). */
  onStranger: () => void;
  /** The session, for the versions panel (restoring a version is an edit like any other). */
  onSession?: (session: TextSession | undefined) => void;
  /** The version the editor has reached, each time it moves (anyone's edit). */
  onVersion?: (version: number) => void;
}

interface Progress {
  canUndo: boolean;
  canRedo: boolean;
  pending: boolean;
  version: number;
}

export function DocumentEditor({ id, userId, mayEdit, people, onStranger, onSession, onVersion }: EditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [state, setState] = useState<{ state: SessionState; why?: string }>({ state: 'connecting' });
  const [cursors, setCursors] = useState<ReadonlyMap<string, Cursor>>(new Map());
  const [progress, setProgress] = useState<Progress>({ canUndo: false, canRedo: false, pending: false, version: 0 });
  const [refused, setRefused] = useState(false);
  const [notice, setNotice] = useState<{ message: string; unsent?: string }>();
  const [session, setSession] = useState<TextSession>();
  const readOnly = !mayEdit || refused || state.state === 'ended';

  useEffect(() => {
    const opened = new TextSession(id, {
      text: (now, edit) => show(textarea, now, edit, setText),
      state: (next, why) => setState({ state: next, ...(why ? { why } : {}) }),
      cursors: (all) => setCursors(new Map(all)),
      readOnly: () => setRefused(true),
      reloaded: (unsent) =>
        setNotice({
          message:
            'You were away longer than this document keeps its history, so it was loaded again as it is now.' +
            (unsent ? ' What you typed while away could not be added to it: it is below, to copy back in.' : ''),
          ...(unsent ? { unsent } : {}),
        }),
      progress: setProgress,
      problem: (message) => setNotice({ message }),
    });
    setSession(opened);
    onSession?.(opened);
    return () => {
      onSession?.(undefined);
      opened.close();
    };
  }, [id]);

  useIdlePointer(session, textarea);
  useEffect(() => {
    if (progress.version > 0) onVersion?.(progress.version);
  }, [progress.version]);

  const names = useMemo(() => {
    const known = new Map<string, string>();
    for (const person of [people.owner, ...people.editors, ...people.viewers]) if (person.name) known.set(person.userId, person.name);
    return known;
  }, [people]);
  // Someone here whom the people do not name: asked once (onStranger refetches them).
  const asked = useRef(new Set<string>());
  useEffect(() => {
    for (const { user } of cursors.values())
      if (user && !names.has(user) && !asked.current.has(user)) {
        asked.current.add(user);
        onStranger();
      }
  }, [cursors, names]);
  const nameOf = (user: string | undefined) => (user && names.get(user)) || 'someone';
  const colourOf = useMemo(() => coloursOf(people), [people]);

  const step = (which: 'undo' | 'redo') => {
    if (!readOnly) session?.step(which);
  };

  return (
    <div class="editor" data-version={progress.version} data-pending={String(progress.pending)} data-state={state.state}>
      <div class="editor-bar" role="toolbar" aria-label="Editing">
        <StateBadge state={state.state} why={state.why} pending={progress.pending} />
        {!readOnly && (
          <span class="undo-redo">
            {(['undo', 'redo'] as const).map((which) => (
              <button
                key={which}
                type="button"
                id={which}
                class="secondary"
                disabled={!(which === 'undo' ? progress.canUndo : progress.canRedo)}
                onClick={() => step(which)}
                title={STEP_HINTS[which]}
              >
                {which === 'undo' ? 'Undo' : 'Redo'}
              </button>
            ))}
          </span>
        )}
      </div>
      {readOnly && state.state !== 'ended' && (
        <p class="read-only" id="read-only">
          You can read this document and follow the others’ edits; its owner can let you edit it.
        </p>
      )}
      {notice && (
        <div class="notice" role="alert">
          <p>{notice.message}</p>
          {notice.unsent !== undefined && <textarea class="unsent" readOnly aria-label="What you typed while away" value={notice.unsent} />}
          <button type="button" class="secondary" onClick={() => setNotice(undefined)}>
            Dismiss
          </button>
        </div>
      )}
      <div class="editor-body">
        <div class="surface">
          <CursorLayer text={text} cursors={cursors} nameOf={nameOf} colourOf={colourOf} textarea={textarea} />
          <textarea
            id="text"
            ref={textarea}
            spellcheck={false}
            aria-label="Document text"
            readOnly={readOnly}
            onInput={() => session?.edit(textarea.current!.value)}
            onKeyDown={(event) => {
              // The browser's own undo would take back the others' edits too: these keys are this person's.
              if (!(event.ctrlKey || event.metaKey)) return;
              const key = event.key.toLowerCase();
              if (key !== 'z' && key !== 'y') return;
              event.preventDefault();
              step(key === 'y' || event.shiftKey ? 'redo' : 'undo');
            }}
            onScroll={() => syncScroll(textarea)}
          />
        </div>
        <HereNow cursors={cursors} me={userId} nameOf={nameOf} colourOf={colourOf} />
      </div>
    </div>
  );
}

/** Puts the server's text in the textarea, keeping the local caret where it belongs. */
function show(textarea: RefObject<HTMLTextAreaElement>, text: string, edit: TextEdit | undefined, setText: (text: string) => void) {
  const area = textarea.current;
  if (area && area.value !== text) {
    const range = { index: area.selectionStart, length: area.selectionEnd - area.selectionStart };
    const moved = edit ? moveRange(range, edit) : range;
    area.value = text;
    area.setSelectionRange(moved.index, moved.index + moved.length);
  }
  setText(text);
}

const syncScroll = (textarea: RefObject<HTMLTextAreaElement>) => {
  const layer = textarea.current?.previousElementSibling;
  if (layer && textarea.current) layer.scrollTop = textarea.current.scrollTop;
};

/**
 * Tells the others where this person's caret is, and whether they are here: active while they
 * type, click or move, idle after a minute without, or while the tab is hidden.
 */
function useIdlePointer(session: TextSession | undefined, textarea: RefObject<HTMLTextAreaElement>) {
  useEffect(() => {
    if (!session) return;
    let idle = false;
    let lastActivity = Date.now();
    let sent = '';
    const send = () => {
      const area = textarea.current;
      if (!area || !session.ready) return;
      const focused = document.activeElement === area;
      const cursor = focused ? { index: area.selectionStart, length: area.selectionEnd - area.selectionStart } : undefined;
      const key = `${cursor?.index}:${cursor?.length}:${idle}`;
      if (key === sent) return;
      sent = key;
      session.point({ ...(cursor ?? lastCursor), ...(idle ? { idle: true } : {}) });
      if (cursor) lastCursor = cursor;
    };
    let lastCursor = { index: 0, length: 0 };
    const active = () => {
      lastActivity = Date.now();
      idle = document.hidden;
      send();
    };
    const check = setInterval(() => {
      const nowIdle = document.hidden || Date.now() - lastActivity > IDLE_AFTER_MS;
      if (nowIdle !== idle) {
        idle = nowIdle;
        send();
      }
    }, 5_000);
    const area = textarea.current;
    const events = ['input', 'select', 'keyup', 'mouseup', 'focus'] as const;
    for (const name of events) area?.addEventListener(name, active);
    document.addEventListener('selectionchange', send);
    document.addEventListener('visibilitychange', active);
    // Typing here does not reach the HTTP API, whose session would time out while the person
    // works: while they are active, touch it every few minutes.
    const keepSignedIn = setInterval(() => {
      if (Date.now() - lastActivity < 5 * 60_000) api.auth.session().catch(() => undefined);
    }, 4 * 60_000);
    return () => {
      clearInterval(check);
      clearInterval(keepSignedIn);
      for (const name of events) area?.removeEventListener(name, active);
      document.removeEventListener('selectionchange', send);
      document.removeEventListener('visibilitychange', active);
    };
  }, [session]);
}

function StateBadge({ state, why, pending }: { state: SessionState; why: string | undefined; pending: boolean }) {
  const words: Record<SessionState, string> = {
    connecting: 'Connecting…',
    connected: pending ? 'Saving…' : 'All changes saved',
    offline: 'Offline: reconnecting… (your edits are kept)',
    ended: `Disconnected: ${why ?? 'access ended'}`,
  };
  return (
    <span class={`edit-state edit-state-${state}`} role="status" id="status">
      {words[state]}
    </span>
  );
}

/** The text again, invisible, behind the textarea, with each other person's caret and selection in their colour. */
function CursorLayer({
  text,
  cursors,
  nameOf,
  colourOf,
  textarea,
}: {
  text: string;
  cursors: ReadonlyMap<string, Cursor>;
  nameOf: (user: string | undefined) => string;
  colourOf: (userId: string) => string;
  textarea: RefObject<HTMLTextAreaElement>;
}) {
  const marks = [...cursors.entries()]
    .map(([presenceId, cursor]) => ({ presenceId, ...cursor, index: Math.min(cursor.index, text.length) }))
    .sort((a, b) => a.index - b.index);
  const parts: preact.ComponentChild[] = [];
  let at = 0;
  // Where this caret's label goes: above the line (0), or under it, a row for each caret near the one before it on its line.
  let stack = 0;
  let previous: number | undefined;
  for (const mark of marks) {
    const colour = colourOf(mark.user ?? mark.presenceId);
    const near = previous !== undefined && mark.index - previous < LABEL_CHARACTERS && !text.slice(previous, mark.index).includes('\n');
    stack = near ? stack + 1 : 0;
    previous = mark.index;
    const end = Math.min(text.length, mark.index + mark.length);
    parts.push(text.slice(at, Math.max(at, mark.index)));
    parts.push(
      <span
        key={mark.presenceId}
        class={`remote-cursor${mark.idle ? ' idle' : ''}`}
        data-index={mark.index}
        data-length={mark.length}
        data-user={mark.user ?? ''}
        data-label={nameOf(mark.user)}
        data-stack={stack}
        style={{ '--colour': colour, '--stack': stack }}
      />,
    );
    if (end > Math.max(at, mark.index)) {
      parts.push(
        <span key={`${mark.presenceId}-selection`} class="remote-selection" style={{ '--colour': colour }}>
          {text.slice(Math.max(at, mark.index), end)}
        </span>,
      );
    }
    at = Math.max(at, mark.index, end);
  }
  parts.push(`${text.slice(at)}\n`);
  useEffect(() => syncScroll(textarea));
  return (
    <div id="cursors" class="cursors" aria-hidden="true">
      {parts}
    </div>
  );
}

/** Who has the document open now, one line a person (however many tabs), active or idle. */
function HereNow({
  cursors,
  me,
  nameOf,
  colourOf,
}: {
  cursors: ReadonlyMap<string, Cursor>;
  me: string;
  nameOf: (user: string | undefined) => string;
  colourOf: (userId: string) => string;
}) {
  const people = new Map<string, boolean>();
  for (const { user, idle } of cursors.values()) if (user && user !== me) people.set(user, (people.get(user) ?? false) || !idle);
  return (
    <section class="here-now" aria-labelledby="here-now-title">
      <h2 id="here-now-title">Here now</h2>
      <ul id="editors">
        <li style={{ '--colour': colourOf(me) }} data-user={me}>
          You
        </li>
        {[...people].map(([user, active]) => (
          <li key={user} style={{ '--colour': colourOf(user) }} data-user={user} data-active={String(active)}>
            {nameOf(user)} <span class="muted">{active ? 'active' : 'idle'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
