// GET /images/{imageId}/{size}: a product's picture, as the upload made it (WebP). A picture's id
// is its bytes' (command-service/src/product/pictures.ts), so what it names never changes: it may
// be kept a year, by browsers and by any cache between, and a revalidation is a 304.
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { QueryDeps } from './context.ts';

const A_YEAR = 365 * 24 * 3600;

export function pictureHandlers({ images }: QueryDeps): Pick<Handlers<'query'>, 'productImage'> {
  return {
    async productImage({ ctx, params }) {
      const etag = `"${params.imageId}-${params.size}"`;
      ctx.set('Cache-Control', `public, max-age=${A_YEAR}, immutable`);
      if (
        ctx
          .get('If-None-Match')
          .split(/\s*,\s*/)
          .includes(etag)
      ) {
        ctx.set('ETag', etag);
        ctx.status = 304;
        return;
      }
      const bytes = await images.get(params.imageId, params.size);
      if (bytes === undefined) {
        ctx.remove('Cache-Control');
        throw problems.notFound(`picture ${params.imageId}`);
      }
      ctx.set('ETag', etag);
      ctx.type = 'image/webp';
      ctx.body = bytes;
    },
  };
}
