/// <reference lib="dom" />
// The editor page's script (bundled for the browser by assets.ts): a textarea bound to a ShareDB
// rich-text document, with everyone's cursors drawn in a layer behind it, each labelled with the
// name its person chose. It reconnects after a
// network failure (ShareDB resends unacknowledged ops, applied once), and reloads the document
// cleanly when the server says this page is too far behind.
import { Connection, types } from 'sharedb/lib/client/index.js';
import richTextModule from 'rich-text';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import { CLOSE_RESTARTING } from '../socket/close-codes.ts';
import { createApiClient } from '@eventide/client/api-client.ts';
import { ApiProblem } from '@eventide/client/problem.ts';
import { plainText } from '../text.ts';
import Delta from 'quill-delta';
import { OwnUndo } from './own-undo.ts';
import { ROLE_MAY, roleIn } from '@eventide/contract/document-roles.ts';

const richText = richTextModule.type;
types.register(richText);

type Doc = ReturnType<Connection['get']>;
type Range = { index: number; length: number; user?: string };
type ShareError = { code?: string; message: string };
type Edit = ({ retain: number } | { insert: string } | { delete: number })[];

const COLLECTION = 'documents';
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLSpanElement>('status');
const textarea = $<HTMLTextAreaElement>('text');
const cursors = $<HTMLDivElement>('cursors');
const editorsList = $<HTMLUListElement>('editors');

function setStatus(text: string, state: 'online' | 'offline' | 'busy' = 'online'): void {
  status.textContent = text;
  status.dataset.state = state;
}

/** The API of this site, where the route table says each operation is. */
const api = createApiClient({ baseUrl: '' });

async function signedIn(): Promise<boolean> {
  return api.auth.session().then(
    () => true,
    () => false,
  );
}

function askToSignIn(): Promise<void> {
  const form = $<HTMLFormElement>('sign-in');
  form.hidden = false;
  setStatus('not signed in', 'offline');
  return new Promise((resolve) => {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      try {
        await api.auth.signIn({ email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') });
      } catch (error) {
        $('sign-in-error').textContent = error instanceof ApiProblem ? error.message : 'sign-in failed';
        return;
      }
      form.hidden = true;
      resolve();
    });
  });
}

function documentId(): string | undefined {
  const id = new URLSearchParams(location.search).get('doc');
  if (id && /^[A-Za-z0-9_-]{1,100}$/.test(id)) return id;
  $<HTMLFormElement>('open').hidden = false;
  return undefined;
}

const textOf = (doc: Doc) => plainText(doc.data);

/** The one edit that turns `before` into `after`: what a keystroke, paste or cut does. */
function diff(before: string, after: string): Edit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end++;
  const delta: Edit = [];
  if (start > 0) delta.push({ retain: start });
  if (before.length - start - end > 0) delta.push({ delete: before.length - start - end });
  if (after.length - start - end > 0) delta.push({ insert: after.slice(start, after.length - end) });
  return delta;
}

const colours = ['#d1495b', '#00798c', '#edae49', '#66a182', '#8d6cab', '#2e4057', '#e07a5f'];
const colourOf = (user: string) => colours[[...user].reduce((sum, c) => sum + c.charCodeAt(0), 0) % colours.length]!;

/** A WebSocket that ShareDB can be rebound to after a failure: reconnects with jittered backoff. */
function connect(onClosedForGood: (reason: string) => void): Connection {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/collab`;
  let failures = 0;
  const open = () => {
    const socket = new WebSocket(url);
    socket.addEventListener('open', () => (failures = 0));
    socket.addEventListener('close', (event) => {
      if (event.code === 4401 || event.code === 4403) return onClosedForGood(event.reason);
      // A server that restarts says so: this is no failure of the network, so no longer wait.
      if (event.code === CLOSE_RESTARTING) failures = 0;
      setStatus('offline: reconnecting…', 'offline');
      const delay = backoffDelay(++failures);
      // bindToSocket is ShareDB's documented way to resume on a new socket; its types omit it.
      setTimeout(() => (connection as unknown as { bindToSocket(s: WebSocket): void }).bindToSocket(open()), delay);
    });
    return socket;
  };
  const connection = new Connection(open() as never);
  return connection;
}

/** A viewer reads, follows and points; the server refuses their edits (ERR_READ_ONLY), so the page offers none. */
function showReadOnly(): void {
  textarea.readOnly = true;
  document.body.dataset.role = 'viewer';
  $('read-only').hidden = false;
}

/**
 * The title given at creation, from the access record (documents first opened here have only
 * their id), and the caller's part in it (anyone on a document not created yet edits).
 */
async function showTitleAndPart(id: string): Promise<void> {
  const [record, session] = await Promise.all([api.documents.access(id).catch(() => undefined), api.auth.session().catch(() => undefined)]);
  // A part that may not edit (an administrator has none: they may).
  const role = record && session ? roleIn(record, session.userId) : undefined;
  if (role && !ROLE_MAY[role].edit) showReadOnly();
  if (!record?.title) return;
  $('doc-name').textContent = record.title;
  document.title = `${record.title} · Eventide editor`;
}

async function main(): Promise<void> {
  if (!(await signedIn())) await askToSignIn();
  const id = documentId();
  if (!id) return;
  $('doc-name').textContent = id;
  void showTitleAndPart(id);
  $<HTMLElement>('editor').hidden = false;

  const connection = connect((reason) => {
    setStatus(`disconnected: ${reason || 'access ended'}`, 'offline');
    textarea.readOnly = true;
  });
  connection.on('state', (state) => {
    if (state === 'connected') setStatus('connected');
  });

  // Who is who: the document's people by the names they chose, asked again when someone new appears.
  const names = new Map<string, string>();
  const asked = new Set<string>();
  async function learnNames(): Promise<void> {
    const people = await api.documents.people(id!).catch(() => undefined);
    if (!people) return;
    // A name the read models do not hold (yet) stays unknown, and is asked for again when seen.
    for (const person of [people.owner, ...people.editors, ...people.viewers]) if (person.name) names.set(person.userId, person.name);
    drawCursors();
  }
  void learnNames();
  const labelOf = (user: string | undefined): string => {
    if (!user) return 'someone';
    const name = names.get(user);
    if (name) return name;
    // Not among the people yet (shared with since, or an administrator): asked once.
    if (!asked.has(user)) {
      asked.add(user);
      void learnNames();
    }
    return 'someone';
  };

  const presence = connection.getDocPresence(COLLECTION, id);
  presence.subscribe();
  const mine = presence.create();
  const remote = new Map<string, Range>();
  let undo = new OwnUndo();
  let doc = openDocument();
  let shown = '';
  let lastActivity = 0;

  function openDocument(): Doc {
    const fresh = connection.get(COLLECTION, id!);
    fresh.subscribe((error) => {
      if (error) return handleError(error as unknown as ShareError);
      if (!fresh.type) fresh.create([], richText.uri, (createError) => createError && handleError(createError as never));
      show();
    });
    fresh.on('op', (_op, source) => {
      // Someone else's edit: what this person may undo moves past it.
      if (source !== 'editor' && source !== 'undo') undo.remote(new Delta(_op as never));
      if (source !== 'editor') show(_op);
      showUndoState();
      markPending();
    });
    fresh.on('load', show);
    fresh.on('error', (error) => handleError(error as unknown as ShareError));
    fresh.on('nothing pending', markPending);
    return fresh;
  }

  function handleError(error: ShareError): void {
    // Someone else created the document first: theirs arrives through the subscription.
    if (error.code === 'ERR_DOC_ALREADY_CREATED') return;
    if (error.code === 'ERR_READ_ONLY') {
      // Made a viewer while typing: what was refused is rolled back by ShareDB; the page stops offering edits.
      showReadOnly();
      setStatus('you can view this document, not edit it', 'offline');
      return;
    }
    if (error.code === 'ERR_TOO_FAR_BEHIND' || error.code === 'ERR_DOC_IN_HARD_ROLLBACK') {
      // The server would rather send the document than thousands of ops: start over from it.
      setStatus('reloading the document…', 'busy');
      doc.destroy();
      // What was kept to undo belonged to the text before the reload.
      undo = new OwnUndo();
      doc = openDocument();
      return;
    }
    setStatus(`error: ${error.message}`, 'offline');
  }

  function markPending(): void {
    document.body.dataset.pending = String(doc.hasWritePending());
    document.body.dataset.version = String(doc.version);
  }

  /** Puts the document's text in the textarea, keeping the local selection where it belongs. */
  function show(op?: unknown): void {
    if (!doc.type) return;
    const text = textOf(doc);
    if (text !== textarea.value) {
      // The caret moves with the edit, as a remote cursor would (transformPresence wraps the delta).
      const moved = richText.transformPresence(
        { index: textarea.selectionStart, length: textarea.selectionEnd - textarea.selectionStart },
        op ?? diff(textarea.value, text),
        false,
      );
      textarea.value = text;
      textarea.setSelectionRange(moved.index, moved.index + moved.length);
    }
    shown = text;
    markPending();
    drawCursors();
  }

  textarea.addEventListener('input', () => {
    if (!doc.type) return;
    const delta = diff(shown, textarea.value);
    shown = textarea.value;
    if (delta.length > 0) {
      undo.local(new Delta(delta), new Delta(doc.data as never));
      doc.submitOp(delta, { source: 'editor' });
    }
    lastActivity = Date.now();
    sendSelection();
    drawCursors();
  });
  for (const event of ['select', 'keyup', 'mouseup', 'focus']) textarea.addEventListener(event, sendSelection);

  /** Takes back (or puts back) this person's own last step, never anyone else's (own-undo.ts). */
  function step(which: 'undo' | 'redo'): void {
    if (!doc.type || textarea.readOnly) return;
    const op = undo[which](new Delta(doc.data as never));
    if (op) doc.submitOp(op.ops, { source: 'undo' });
    showUndoState();
  }
  function showUndoState(): void {
    $<HTMLButtonElement>('undo').disabled = !undo.canUndo || textarea.readOnly;
    $<HTMLButtonElement>('redo').disabled = !undo.canRedo || textarea.readOnly;
  }
  // The browser's own undo would take back the others' edits too: these keys are this person's.
  textarea.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      step(key === 'y' || event.shiftKey ? 'redo' : 'undo');
    }
  });
  $('undo').addEventListener('click', () => step('undo'));
  $('redo').addEventListener('click', () => step('redo'));
  document.addEventListener('selectionchange', sendSelection);
  textarea.addEventListener('scroll', () => (cursors.scrollTop = textarea.scrollTop));

  let sentSelection = '';
  function sendSelection(): void {
    if (!doc.type || document.activeElement !== textarea) return;
    const range: Range = { index: textarea.selectionStart, length: textarea.selectionEnd - textarea.selectionStart };
    const key = `${range.index}:${range.length}:${doc.version}`;
    if (key === sentSelection) return;
    sentSelection = key;
    mine.submit(range, (error) => error && setStatus(`presence: ${error.message}`, 'offline'));
  }

  presence.on('receive', (presenceId: string, value: Range | null) => {
    if (value) remote.set(presenceId, value);
    else remote.delete(presenceId);
    drawCursors();
  });

  /** Redraws the layer behind the textarea: the same text, with a marker at each remote cursor. */
  function drawCursors(): void {
    const text = textarea.value;
    const marks = [...remote.entries()]
      .map(([presenceId, range]) => ({ presenceId, ...range, index: Math.min(range.index, text.length) }))
      .sort((a, b) => a.index - b.index);
    cursors.replaceChildren();
    editorsList.replaceChildren();
    let at = 0;
    for (const mark of marks) {
      const colour = colourOf(mark.user ?? mark.presenceId);
      cursors.append(text.slice(at, mark.index));
      const selectionEnd = Math.min(text.length, mark.index + mark.length);
      const caret = document.createElement('span');
      caret.className = 'remote-cursor';
      caret.dataset.index = String(mark.index);
      caret.dataset.length = String(mark.length);
      caret.dataset.user = mark.user ?? '';
      caret.dataset.label = labelOf(mark.user);
      caret.style.setProperty('--colour', colour);
      cursors.append(caret);
      if (selectionEnd > mark.index) {
        const selected = document.createElement('span');
        selected.className = 'remote-selection';
        selected.style.setProperty('--colour', colour);
        selected.textContent = text.slice(mark.index, selectionEnd);
        cursors.append(selected);
      }
      at = Math.max(mark.index, selectionEnd);
      const item = document.createElement('li');
      item.textContent = caret.dataset.label;
      item.style.setProperty('--colour', colour);
      editorsList.append(item);
    }
    cursors.append(`${text.slice(at)}\n`);
    cursors.scrollTop = textarea.scrollTop;
  }

  // Typing here does not reach the HTTP API, whose session would time out while the user works:
  // while they are active, touch it every few minutes.
  setInterval(() => {
    if (Date.now() - lastActivity < 5 * 60_000) void signedIn();
  }, 4 * 60_000);
}

main().catch((error: Error) => setStatus(`error: ${error.message}`, 'offline'));
