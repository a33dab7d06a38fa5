// A document's versions over HTTP (docs/collab.md#versions): its timeline (the named versions and
// the milestones the server keeps), naming a version and taking a name off. Reading a version's
// text is GET /collab/documents/{id}?version=N; restoring one is an op like any other edit.
import type { DocumentTimeline, NamedVersion } from '@eventide/contract/resources/documents/versions.ts';
import { owned, type Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { DocumentLibrary } from './library.ts';
import type { DocumentReader } from './documents.ts';
import { editing, type DocumentRule } from './document-rules.ts';
import { DOCUMENTS } from './sharedb/access.ts';
import { NamingRefused, type NamedEntry, type NamedVersions } from './sharedb/named-versions.ts';
import type { HistoryStore } from './store/history.ts';
import { CollabError } from './errors.ts';
import type { Quotas } from './sharedb/quotas.ts';

const iso = (ms: number | undefined) => (ms === undefined ? {} : { madeAt: new Date(ms).toISOString() });

export function versionHandlers(deps: {
  member: DocumentRule;
  reader: DocumentReader;
  named: NamedVersions;
  history: HistoryStore;
  library: DocumentLibrary;
  quotas: Pick<Quotas, 'mayKeep' | 'keptChanged'>;
}): Pick<Handlers<'collab'>, 'listVersions' | 'nameVersion' | 'forgetVersion'> {
  const { member, reader, named, history, library, quotas } = deps;
  const editor = editing(member);

  const describe = async (version: number, entry: NamedEntry): Promise<NamedVersion> => ({
    version,
    name: entry.name,
    by: await library.person(entry.by),
    namedAt: new Date(entry.namedAt).toISOString(),
    ...iso(entry.madeAt),
  });

  return {
    listVersions: owned(member, async ({ ctx, params: { id } }) => {
      const [now, names, milestones, oldestOp] = await Promise.all([
        reader.current(id),
        named.list(id),
        history.milestones(DOCUMENTS, id),
        history.oldestOp(DOCUMENTS, id),
      ]);
      const oldest = oldestOp ?? now.version;
      const timeline: DocumentTimeline = {
        id,
        current: now.version,
        oldest,
        named: await Promise.all([...names].sort(([a], [b]) => b - a).map(([version, entry]) => describe(version, entry))),
        // A milestone before the kept history that is not named is on its way out: not offered.
        milestones: milestones.filter(({ v }) => v >= oldest && !names.has(v)).map(({ v, mtime }) => ({ version: v, ...iso(mtime) })),
      };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = timeline;
    }),

    nameVersion: owned(editor, async ({ ctx, params: { id }, body, user, owned: record }) => {
      const version = body.version ?? (await reader.current(id)).version;
      let entry: NamedEntry;
      try {
        // A named version's milestone is kept for good: its characters count against the owner's quota.
        entry = await named.name(id, version, body.name, user.id, (characters) => quotas.mayKeep(record.owner, characters));
        quotas.keptChanged(record.owner);
      } catch (error) {
        if (error instanceof CollabError && error.code === 'ERR_QUOTA') throw problems.quotaReached(error.message);
        if (!(error instanceof NamingRefused)) throw error;
        if (error.reason === 'too-many') throw problems.quotaReached(error.message);
        throw problems.invalidField('version', error.message);
      }
      ctx.status = 201;
      ctx.set('Location', `/collab/documents/${id}?version=${version}`);
      ctx.body = await describe(version, entry);
    }),

    forgetVersion: owned(editor, async ({ ctx, params: { id, version }, owned: record }) => {
      if (!(await named.forget(id, version))) throw refuse.notFound(`a version ${version} of ${id} with a name`);
      quotas.keptChanged(record.owner);
      ctx.status = 204;
    }),
  };
}
