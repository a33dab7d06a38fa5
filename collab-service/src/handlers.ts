// The collab service's operations (api/operations.ts): the old editor page's address, the
// caller's documents and new ones, a document's text now or as it was (at a version or a time),
// and who may edit it. Who may open a document is its access record's rule (document-rules.ts),
// given to the mount beside each handler: its members read, its owner shares.
import type { AccessRecord, SharedRole } from '@eventide/contract/resources/documents/schemas.ts';
import { owned, type Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { DocumentLibrary } from './library.ts';
import { roleIn, type DocumentAccess } from './sharedb/access.ts';
import type { documentReader } from './documents.ts';
import { forClient } from './errors.ts';
import type { Quotas } from './sharedb/quotas.ts';
import type { NamedVersions } from './sharedb/named-versions.ts';
import type { HistoryStore } from './store/history.ts';
import { versionHandlers } from './versions.ts';
import { members, owner } from './document-rules.ts';

export interface CollabHandlerDeps {
  access: DocumentAccess;
  reader: ReturnType<typeof documentReader>;
  library: DocumentLibrary;
  named: NamedVersions;
  history: HistoryStore;
  quotas: Pick<Quotas, 'mayKeep' | 'keptChanged'>;
}

export function collabHandlers({ access, reader, library, named, history, quotas }: CollabHandlerDeps): Handlers<'collab'> {
  const member = members(access);
  const manager = owner(access);
  /** Gives the user a part; takes it away only from someone who has that part (DELETE …/editors/{id} leaves a viewer one). */
  const setRole = <K extends 'addEditor' | 'removeEditor' | 'addViewer' | 'removeViewer'>(role: SharedRole, giving: boolean) =>
    owned<K, AccessRecord | undefined, AccessRecord>(manager, async ({ ctx, params, owned: record }) => {
      if (giving) ctx.body = await access.setRole(params.id, params.userId, role);
      else ctx.body = roleIn(record, params.userId) === role ? await access.setRole(params.id, params.userId, undefined) : record;
    });
  return {
    openEditor({ ctx, query }) {
      // The editor is a page of the web app now (docs/collab.md#the-editor): old links still arrive.
      ctx.redirect(query.doc === undefined ? '/#/documents' : `/#/documents/${query.doc}`);
      // No "Redirecting to" page, which no one sees: what the OpenAPI document describes.
      ctx.body = '';
    },

    async listDocuments({ ctx, user }) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { items: await library.list(user) };
    },
    async createDocument({ ctx, user, body }) {
      const created = await library.create(user, body.title);
      ctx.status = 201;
      ctx.set('Location', `/collab/documents/${created.id}`);
      ctx.body = created;
    },

    getDocument: owned(member, async ({ ctx, params: { id }, query }) => {
      if (query.version !== undefined) {
        const current = await reader.current(id);
        if (query.version > current.version) throw problems.invalidField('version', `the document is at version ${current.version}`);
        ctx.body = await beforeHistory('version', reader.atVersion(id, query.version));
      } else if (query.at !== undefined) {
        ctx.body = await beforeHistory('at', reader.atTime(id, new Date(query.at)));
      } else {
        ctx.body = await reader.current(id);
      }
    }),
    getDocumentAccess: owned(member, ({ ctx, owned: record }) => {
      ctx.body = record;
    }),
    getDocumentPeople: owned(member, async ({ ctx, params }) => {
      ctx.body = await library.people(params.id);
    }),

    shareDocument: owned(manager, async ({ ctx, params: { id }, user, body: target, owned: record, spend }) => {
      // A lookup by email tells whether it has an account: one of the address's answers of that kind.
      if (target.email !== undefined) await spend('account-answer');
      const other = await library.findPerson(user, target);
      if (other === record.owner) throw problems.unprocessable(target.email ? 'email' : 'name', 'this is the owner of the document');
      await access.setRole(id, other, target.role);
      ctx.body = await library.people(id);
    }),
    addEditor: setRole('editor', true),
    removeEditor: setRole('editor', false),
    addViewer: setRole('viewer', true),
    removeViewer: setRole('viewer', false),
    ...versionHandlers({ member, reader, named, history, library, quotas }),
  };
}

/**
 * A read of the document as it was, before the history it keeps (sharedb/history.ts): a 400 on
 * the field asked with, saying where the kept history starts, instead of a failure of ours.
 */
async function beforeHistory<T>(field: 'version' | 'at', read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    // The store's own "those ops were let go" (a code of its own on MongoDB) is told as ShareDB's.
    const { code, message } = forClient(error as { code?: unknown; message?: unknown }).told;
    if (code === 'ERR_TOO_FAR_BEHIND') {
      throw problems.invalidField(field, `${String(message).split(':')[0]}; ask for a later one`);
    }
    throw error;
  }
}
