// What each part of the system holds about a person, gathered for their export (GDPR art. 15 and
// 20; docs/privacy.md#export). Each service adds the sections it holds to the platform's registry
// (the query service the profile and orders, the command service the sign-in methods, the collab
// service the documents), so no service reads another's stores; the export route asks them all.
//
// The document is written as it is read: a list section (events, orders, documents) gives its
// items one at a time and each is serialised and sent before the next is read, so an export costs
// the memory of its largest item, whatever the person holds in all (docs/privacy.md#export).
import { EXPORT_SECTIONS, type ExportSection, type ExportSectionData } from '@eventide/contract/resources/users/personal-data.ts';

/** A list section reads its items one by one (pages of its store behind them); any other, its value. */
export type SectionReader<S extends ExportSection> = (
  userId: string,
) => ExportSectionData[S] extends readonly (infer Item)[] ? AsyncIterable<Item> : Promise<ExportSectionData[S]>;

export interface PersonalDataSections {
  add<S extends ExportSection>(section: S, read: SectionReader<S>): void;
  /**
   * The export as JSON text, in pieces. The small sections are read before this resolves, so a
   * store that fails at once fails the request with a problem; the lists are read as the pieces
   * are taken, and one that fails then ends the document unfinished (the caller must cut it off).
   */
  exportOf(userId: string, now?: Date): Promise<AsyncIterable<string>>;
}

type Read = Promise<unknown> | AsyncIterable<unknown>;

const isList = (read: Read): read is AsyncIterable<unknown> => Symbol.asyncIterator in read;

export function personalDataSections(): PersonalDataSections {
  const readers = new Map<ExportSection, (userId: string) => Read>();
  return {
    add(section, read) {
      if (readers.has(section)) throw new Error(`the export section ${section} is added twice`);
      readers.set(section, read as (userId: string) => Read);
    },
    async exportOf(userId, now = new Date()) {
      const present = EXPORT_SECTIONS.filter((s) => readers.has(s));
      const missing = EXPORT_SECTIONS.filter((s) => !readers.has(s));
      const reads = present.map((section) => ({ section, read: readers.get(section)!(userId) }));
      // The single values are small (a profile, the sign-in methods): read them now, together.
      const values = new Map(
        await Promise.all(reads.filter(({ read }) => !isList(read)).map(async ({ section, read }) => [section, await read] as const)),
      );
      return (async function* document() {
        yield `{"userId":${JSON.stringify(userId)},"exportedAt":${JSON.stringify(now.toISOString())}`;
        for (const { section, read } of reads) {
          if (!isList(read)) {
            yield `,${JSON.stringify(section)}:${JSON.stringify(values.get(section))}`;
            continue;
          }
          yield `,${JSON.stringify(section)}:[`;
          let first = true;
          for await (const item of read) {
            yield (first ? '' : ',') + JSON.stringify(item);
            first = false;
          }
          yield ']';
        }
        yield `,"missing":${JSON.stringify(missing)}}`;
      })();
    },
  };
}
