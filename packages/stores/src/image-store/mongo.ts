// The image store on MongoDB (MONGO_URL): each rendition a file in GridFS (bucket `images`), which
// MongoDB keeps in chunks under its 16 MB document bound, named <id>-<rendition>.
import { GridFSBucket, MongoClient } from 'mongodb';
import type { ImageRendition } from '@eventide/kernel/entities/product-image.ts';
import type { ImageStore } from './port.ts';

const fileName = (imageId: string, rendition: ImageRendition) => `${imageId}-${rendition}`;

export async function openMongoImageStore(url: string): Promise<ImageStore> {
  const client = await new MongoClient(url).connect();
  const bucket = new GridFSBucket(client.db(), { bucketName: 'images', writeConcern: { w: 'majority', journal: true } });
  await client.db().collection('images.files').createIndex({ filename: 1, uploadDate: -1 });

  async function remove(name: string): Promise<void> {
    for (const file of await bucket.find({ filename: name }).toArray()) await bucket.delete(file._id);
  }

  return {
    async put(imageId, renditions) {
      for (const [rendition, bytes] of Object.entries(renditions) as Array<[ImageRendition, Buffer]>) {
        const name = fileName(imageId, rendition);
        const before = await bucket.find({ filename: name }).toArray();
        await new Promise<void>((resolve, reject) => {
          const upload = bucket.openUploadStream(name, { metadata: { contentType: 'image/webp' } });
          upload.once('finish', () => resolve());
          upload.once('error', reject);
          upload.end(bytes);
        });
        // A retried put replaces what it kept before.
        for (const file of before) await bucket.delete(file._id);
      }
    },
    async get(imageId, rendition) {
      const [file] = await bucket
        .find({ filename: fileName(imageId, rendition) })
        .sort({ uploadDate: -1 })
        .limit(1)
        .toArray();
      if (!file) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async delete(imageId) {
      await remove(fileName(imageId, 'small'));
      await remove(fileName(imageId, 'large'));
    },
    close: () => client.close(),
  };
}
