// What each part of the system holds about a person, gathered for their export (GDPR art. 15 and
// 20; docs/privacy.md#export). Each service adds the sections it holds to the platform's registry
// (the query service the profile and orders, the command service the sign-in methods, the collab
// service the documents), so no service reads another's stores; the export route asks them all.
import { EXPORT_SECTIONS, type ExportSection, type ExportSectionData, type PersonalDataExport } from '../api/personal-data.ts';

export type SectionReader<S extends ExportSection> = (userId: string) => Promise<ExportSectionData[S]>;

export interface PersonalDataSections {
  add<S extends ExportSection>(section: S, read: SectionReader<S>): void;
  /** Every section this process holds, and the names of those it does not. */
  exportOf(userId: string, now?: Date): Promise<PersonalDataExport>;
}

export function personalDataSections(): PersonalDataSections {
  const readers = new Map<ExportSection, SectionReader<ExportSection>>();
  return {
    add(section, read) {
      if (readers.has(section)) throw new Error(`the export section ${section} is added twice`);
      readers.set(section, read as SectionReader<ExportSection>);
    },
    async exportOf(userId, now = new Date()) {
      const present = EXPORT_SECTIONS.filter((s) => readers.has(s));
      const read = await Promise.all(present.map(async (s) => [s, await readers.get(s)!(userId)] as const));
      return {
        userId,
        exportedAt: now.toISOString(),
        ...Object.fromEntries(read),
        missing: EXPORT_SECTIONS.filter((s) => !readers.has(s)),
      };
    },
  };
}
