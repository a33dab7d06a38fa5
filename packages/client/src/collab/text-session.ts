// One document open for editing in a browser (docs/collab.md#the-editor): a ShareDB connection over
// the /collab WebSocket, the document's text, everyone's cursors, and undo of one's own edits
// (own-undo.ts). It reconnects after a network failure with backoff (ShareDB resends what was
// not acknowledged, applied once), and starts over from the server's text when it was away longer
// than the history the server keeps, saying so and handing back what was typed meanwhile. The
// page draws; this keeps no DOM.
import { Connection, types } from 'sharedb/lib/client/index.js';
import richTextModule from 'rich-text';
import Delta from 'quill-delta';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import {
  CLOSE_FORBIDDEN,
  CLOSE_RESTARTING,
  CLOSE_SESSION_ENDED,
  COLLAB_PATH,
  DOCUMENTS_COLLECTION,
  plainText,
} from '@eventide/contract/resources/documents/collab-wire.ts';
import { OwnUndo } from './own-undo.ts';
import { textEdit, type TextEdit } from './text-edit.ts';

const richText = richTextModule.type;
types.register(richText);

type Doc = ReturnType<Connection['get']>;
type ShareError = { code?: string; message: string };

/** A place in the text, as ShareDB's presence carries it; the server adds whose it is. */
export interface Cursor {
  index: number;
  length: number;
  /** Set by the server: the user whose cursor it is. */
  user?: string;
  /** The person has not typed or moved for a while, or their tab is hidden. */
  idle?: boolean;
}

export type SessionState = 'connecting' | 'connected' | 'offline' | 'ended';

export interface TextSessionEvents {
  /** The text changed (this person's typing too); `edit` is the change when someone else made it (to move the local caret). */
  text(text: string, edit?: TextEdit): void;
  state(state: SessionState, why?: string): void;
  /** Others' cursors, by presence id. */
  cursors(cursors: ReadonlyMap<string, Cursor>): void;
  /** The server refused an edit because this person may only read: the page stops offering edits. */
  readOnly(): void;
  /**
   * The document was loaded afresh from the server, because this page was further behind than
   * the history kept; `unsent` is the text as this page had it, when it held edits never saved.
   */
  reloaded(unsent: string | undefined): void;
  /** Whether there is something to undo and redo, whether edits await the server, and the version. */
  progress(progress: { canUndo: boolean; canRedo: boolean; pending: boolean; version: number }): void;
  /** Anything else the server refused or failed at (`code`: ShareDB's or the service's, docs/collab.md#error-codes). */
  problem(message: string, code?: string): void;
}

/** Moves a place in the text past an edit made elsewhere. */
export const moveRange = (range: { index: number; length: number }, edit: TextEdit) => richText.transformPresence(range, edit, false);

export class TextSession {
  private readonly connection: Connection;
  private readonly presence: ReturnType<Connection['getDocPresence']>;
  private readonly mine: ReturnType<ReturnType<Connection['getDocPresence']>['create']>;
  private readonly others = new Map<string, Cursor>();
  private doc: Doc;
  private undoable = new OwnUndo();
  private shown = '';
  /** The text as this page made it, while some edit of its own awaits the server's acknowledgement. */
  private unsent: string | undefined;
  private closed = false;
  /** Between dropping a document too far behind and opening it afresh: its failures are no longer news. */
  private reloading = false;
  private readonly id: string;
  private readonly on: TextSessionEvents;

  constructor(id: string, on: TextSessionEvents, options: { url?: string } = {}) {
    this.id = id;
    this.on = on;
    this.connection = this.connect(options.url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${COLLAB_PATH}`);
    this.connection.on('state', (state) => {
      if (state === 'connected') on.state('connected');
    });
    this.presence = this.connection.getDocPresence(DOCUMENTS_COLLECTION, id);
    this.presence.subscribe();
    this.mine = this.presence.create();
    this.presence.on('receive', (presenceId: string, value: Cursor | null) => {
      if (value) this.others.set(presenceId, value);
      else this.others.delete(presenceId);
      on.cursors(this.others);
    });
    this.doc = this.open();
  }

  get text(): string {
    return this.shown;
  }

  get ready(): boolean {
    return Boolean(this.doc.type);
  }

  /** The text is now `after` (what a keystroke, paste or cut made of it): sends the one edit between. */
  edit(after: string): void {
    if (!this.doc.type || this.reloading) return;
    const edit = textEdit(this.shown, after);
    this.shown = after;
    if (edit.length === 0) return;
    this.undoable.local(new Delta(edit), new Delta(this.doc.data as never));
    this.submit(edit, 'editor');
    // The page draws the others' carets on this text: without it, they would stand where they were
    // before this person's own last keystrokes until someone else's edit came.
    this.on.text(after);
    this.progress();
  }

  /**
   * Makes the text `text` again (a version restored): one edit from what it is now, which others'
   * editors follow and which this person may undo like any other of theirs.
   */
  restore(text: string): void {
    if (!this.doc.type || this.reloading) return;
    // By characters, not one replacement: what others type meanwhile outside the changed parts stays.
    const edit = new Delta().insert(this.shown).diff(new Delta().insert(text)).ops as TextEdit;
    if (edit.length === 0) return;
    this.undoable.local(new Delta(edit), new Delta(this.doc.data as never), { alone: true });
    this.submit(edit, 'editor');
    this.show(edit);
  }

  /** Takes back (or puts back) this person's own last step, never anyone else's. */
  step(which: 'undo' | 'redo'): void {
    if (!this.doc.type || this.reloading) return;
    const op = this.undoable[which](new Delta(this.doc.data as never));
    if (op) {
      this.submit(op.ops as TextEdit, 'undo');
      this.show(op.ops as TextEdit);
    }
    this.progress();
  }

  /** Where this person's caret or selection is, and whether they are idle: shown to the others. */
  point(cursor: { index: number; length: number; idle?: boolean }): void {
    if (!this.doc.type || this.closed) return;
    this.mine.submit(cursor, (error) => error && this.on.problem(`your cursor could not be shown: ${error.message}`));
  }

  private submit(edit: TextEdit, source: 'editor' | 'undo'): void {
    const doc = this.doc;
    doc.submitOp(edit, { source }, (error) => {
      if (error) return this.failed(error as unknown as ShareError, doc);
      if (doc === this.doc && !doc.hasWritePending()) this.unsent = undefined;
    });
    // Kept apart from what is shown: a reload replaces that before it reports the failure.
    this.unsent = plainText(doc.data);
  }

  close(): void {
    this.closed = true;
    this.mine.destroy();
    this.doc.destroy();
    this.connection.close();
  }

  /** A WebSocket that ShareDB is rebound to after a failure, with jittered backoff. */
  private connect(url: string): Connection {
    let failures = 0;
    const open = () => {
      const socket = new WebSocket(url);
      socket.addEventListener('open', () => (failures = 0));
      socket.addEventListener('close', (event) => {
        if (this.closed) return;
        if (event.code === CLOSE_SESSION_ENDED || event.code === CLOSE_FORBIDDEN) {
          this.closed = true;
          this.on.state('ended', event.reason || (event.code === CLOSE_FORBIDDEN ? 'access was withdrawn' : 'the session ended'));
          return;
        }
        // A server that restarts says so: no failure of the network, so no waiting.
        if (event.code === CLOSE_RESTARTING) failures = 0;
        this.on.state('offline');
        // bindToSocket is ShareDB's documented way to resume on a new socket; its types omit it.
        setTimeout(
          () => !this.closed && (connection as unknown as { bindToSocket(s: WebSocket): void }).bindToSocket(open()),
          backoffDelay(++failures),
        );
      });
      return socket;
    };
    const connection = new Connection(open() as never);
    this.on.state('connecting');
    return connection;
  }

  private open(): Doc {
    const doc = this.connection.get(DOCUMENTS_COLLECTION, this.id);
    doc.subscribe((error) => {
      if (error) return this.failed(error as unknown as ShareError, doc);
      if (!doc.type) doc.create([], richText.uri, (createError) => createError && this.failed(createError as never, doc));
      this.show();
      // Here, if not yet pointing anywhere: the others' lists show this person.
      this.point({ index: 0, length: 0 });
    });
    doc.on('op', (op, source) => {
      if (source === 'editor' || source === 'undo') return this.progress();
      // Someone else's edit: what this person may undo moves past it.
      this.undoable.remote(new Delta(op as never));
      this.show(op as TextEdit);
    });
    doc.on('load', () => this.show());
    doc.on('error', (error) => this.failed(error as unknown as ShareError, doc));
    doc.on('nothing pending', () => this.progress());
    return doc;
  }

  private failed(error: ShareError, doc: Doc): void {
    // Someone else created the document first: theirs arrives through the subscription. A
    // document dropped for a fresh one may still report its failures (each unsent op's): not ours.
    if (error.code === 'ERR_DOC_ALREADY_CREATED' || doc !== this.doc || this.reloading || this.closed) return;
    if (error.code === 'ERR_READ_ONLY') {
      // Made a viewer while typing: ShareDB takes back what was refused; the page stops offering edits.
      this.on.readOnly();
      return;
    }
    if (error.code === 'ERR_TOO_FAR_BEHIND' || error.code === 'ERR_DOC_IN_HARD_ROLLBACK') {
      // The server would rather send the document than the ops since: start over from it, and
      // hand back what was typed here and never saved, so that nothing is silently lost.
      const unsent = this.unsent;
      this.unsent = undefined;
      this.reloading = true;
      this.undoable = new OwnUndo();
      // The connection hands out the same Doc until the old one is destroyed: a fresh one after.
      doc.removeAllListeners();
      doc.destroy(() => {
        this.reloading = false;
        if (this.closed) return;
        this.doc = this.open();
        this.doc.once('load', () => this.on.reloaded(unsent !== undefined && unsent !== this.shown ? unsent : undefined));
      });
      return;
    }
    this.on.problem(error.message, error.code);
  }

  /** Tells the page the server's text (and the edit that made it, when someone else's). */
  private show(edit?: TextEdit): void {
    if (!this.doc.type) return;
    this.shown = plainText(this.doc.data);
    this.on.text(this.shown, edit);
    this.progress();
  }

  private progress(): void {
    this.on.progress({
      canUndo: this.undoable.canUndo,
      canRedo: this.undoable.canRedo,
      pending: this.doc.hasWritePending(),
      version: this.doc.version ?? 0,
    });
  }
}
