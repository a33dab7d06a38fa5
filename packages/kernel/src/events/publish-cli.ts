// `npm run events:publish`: adds each public event's current version to published.json (its JSON
// Schema and example), once the version is final; commit the file with the change. A version
// already published is never rewritten: a schema that differs from its published self is a new
// version (compatibility.ts says what to do), and this refuses until it is one.
import { writeFileSync } from 'node:fs';
import {
  compatibilityProblems,
  currentCatalogue,
  jsonSchemaOf,
  PUBLISHED_FILE,
  readPublished,
  versionOfCatalogue,
  type Published,
} from './compatibility.ts';

const catalogue = currentCatalogue();
const published: Published = readPublished();
const added: string[] = [];
for (const [type, event] of Object.entries(catalogue)) {
  const version = String(versionOfCatalogue(event));
  published[type] ??= {};
  if (published[type][version]) continue;
  published[type][version] = { schema: jsonSchemaOf(event.schema), example: event.example };
  added.push(`${type} version ${version}`);
}
const problems = compatibilityProblems(catalogue, published);
if (problems.length > 0) {
  console.error(`not published: the catalogue is not compatible with what was published before\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
const sorted = Object.fromEntries(
  Object.keys(published)
    .sort()
    .map((type) => [type, published[type]]),
);
writeFileSync(PUBLISHED_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(added.length > 0 ? `published ${added.join(', ')} in ${PUBLISHED_FILE}` : 'every version is published already');
