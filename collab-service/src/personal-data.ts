// The collab service's part of a person's export (docs/privacy.md#export): the documents they own,
// with their text, and those they edit, without it (that text is its owner's).
import type { PersonalDataSections } from '@eventide/runtime/export-sections.ts';
import type { DocumentReader } from './documents.ts';
import type { DocumentAccess } from './sharedb/access.ts';
import type { MemberIndex } from './store/members.ts';

/** Far more than a person makes by hand; a list past it is cut here (docs/privacy.md#export). */
export const MAX_EXPORTED_DOCUMENTS = 10_000;

export function addCollabSections(
  sections: PersonalDataSections,
  deps: { members: MemberIndex; access: DocumentAccess; reader: DocumentReader },
): void {
  // One document at a time, in id order: its text is the largest thing an export holds.
  sections.add('documents', async function* (userId) {
    const memberships = await deps.members.documentsOf(userId, MAX_EXPORTED_DOCUMENTS);
    for (const { id, role } of memberships.sort((a, b) => a.id.localeCompare(b.id))) {
      const record = await deps.access.record(id);
      const now = await deps.reader.current(id);
      const { createdAt, modifiedAt } = now;
      yield {
        id,
        title: record?.title ?? id,
        role,
        ...(createdAt ? { createdAt } : {}),
        ...(modifiedAt ? { modifiedAt } : {}),
        ...(role === 'owner' ? { text: now.text } : {}),
      };
    }
  });
}
