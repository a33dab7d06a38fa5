// The image store on PostgreSQL (DATABASE_URL): one row per rendition, beside the read models, so
// that every process on the database serves the same pictures and one backup holds them all.
import type pg from 'pg';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import type { ImageStore } from './port.ts';

const STORE = 'image store';

/** The store's migration steps, in order; a new step is added at the end, never an old one changed. */
const IMAGE_STEPS: readonly string[] = [
  `CREATE TABLE product_images (
     image_id  text  NOT NULL,
     rendition text  NOT NULL,
     bytes     bytea NOT NULL,
     PRIMARY KEY (image_id, rendition)
   );`,
];

export async function openPostgresImageStore(url: string): Promise<ImageStore> {
  const connections = openPool(url, 4);
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<R>(text, values));
  await reaching(STORE, () => migrate(connections, 'images', IMAGE_STEPS));
  return {
    async put(imageId, renditions) {
      const entries = Object.entries(renditions);
      // One statement: the renditions are kept together or not at all.
      await query(
        `INSERT INTO product_images (image_id, rendition, bytes)
         SELECT $1, * FROM unnest($2::text[], $3::bytea[])
         ON CONFLICT (image_id, rendition) DO UPDATE SET bytes = excluded.bytes`,
        [imageId, entries.map(([rendition]) => rendition), entries.map(([, bytes]) => bytes)],
      );
    },
    async get(imageId, rendition) {
      const found = await query<{ bytes: Buffer }>('SELECT bytes FROM product_images WHERE image_id = $1 AND rendition = $2', [
        imageId,
        rendition,
      ]);
      return found.rows[0]?.bytes;
    },
    async delete(imageId) {
      await query('DELETE FROM product_images WHERE image_id = $1', [imageId]);
    },
    close: () => connections.end(),
  };
}
