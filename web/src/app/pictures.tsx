/// <reference lib="dom" />
// Products' pictures: a card's thumbnail, a product page's gallery, and an admin's pictures (add
// one by upload; move one first; take one off). A picture is served by /images in the size the
// place needs, with its width and height given so the page does not move as it loads.
import { useState } from 'preact/hooks';
import type { Product } from '@eventide/client/api-client.ts';
import type { ProductImage } from '@eventide/kernel/entities/product-image.ts';
import {
  type ImageRendition,
  MAX_PICTURE_BYTES,
  MAX_PRODUCT_IMAGES,
  PICTURE_TYPES,
} from '@eventide/kernel/entities/product-image-bounds.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api } from './api.ts';
import { ProblemMessage, useSubmit } from './parts.tsx';

export const pictureUrl = (image: ProductImage, size: ImageRendition) => `/images/${image.imageId}/${size}`;

/** A card's picture, or an empty frame of the same shape: the cards line up either way. */
export function Thumbnail({ product }: { product: Product }) {
  const [first] = product.images;
  if (!first) return <div class="thumb empty" aria-hidden="true" />;
  // The name is beside it: the picture says nothing more to a screen reader.
  return (
    <img class="thumb" src={pictureUrl(first, 'small')} width={first.width} height={first.height} alt="" loading="lazy" decoding="async" />
  );
}

/** A product page's pictures: one large, the others as buttons that show theirs. */
export function Gallery({ product }: { product: Product }) {
  const [shown, setShown] = useState(0);
  const images = product.images;
  if (images.length === 0) return null;
  const current = images[Math.min(shown, images.length - 1)]!;
  return (
    <figure class="gallery">
      <img src={pictureUrl(current, 'large')} width={current.width} height={current.height} alt={product.name} />
      {images.length > 1 && (
        <fieldset class="gallery-choices">
          <legend class="visually-hidden">Pictures</legend>
          {images.map((image, i) => (
            <button key={image.imageId} type="button" class="gallery-choice" aria-pressed={i === shown} onClick={() => setShown(i)}>
              <img
                src={pictureUrl(image, 'small')}
                width={image.width}
                height={image.height}
                alt={`${product.name}, view ${i + 1} of ${images.length}`}
              />
            </button>
          ))}
        </fieldset>
      )}
    </figure>
  );
}

const MEGABYTES = Math.round(MAX_PICTURE_BYTES / 1024 / 1024);

/**
 * What is wrong with the file sent, said of the file: the server names what it found in the
 * bytes (`is not a picture…`, `has 60,000,000 pixels…`) at `Content-Type` or `(body)`.
 */
function fileError(problem: ApiProblem | undefined): string | undefined {
  if (problem?.status === 413) return `This file is larger than ${MEGABYTES} MB, the most taken: choose a smaller picture.`;
  const error = problem?.errors.find((e) => e.field === 'Content-Type' || e.field === '(body)');
  return error && `This file ${error.message}.`;
}

/** An admin's pictures of a product: upload one (the server says what is wrong with a file), move one first, take one off. */
export function PicturesEditor(props: { product: Product; version: number; onSaved: (product: Product, version: number) => void }) {
  const { product } = props;
  const [file, setFile] = useState<File>();
  const [key, setKey] = useState(0);
  const uploading = useSubmit(async () => {
    if (!file) return;
    const answer = await api.products.addImage(product.productId, file, { ifMatch: props.version });
    props.onSaved(answer.data, answer.version ?? props.version);
    setFile(undefined);
    // A new input: the one that held the file sent is emptied.
    setKey((k) => k + 1);
  });
  const changing = useSubmit(async (images: ProductImage[]) => {
    const answer = await api.products.change(product.productId, { images }, { ifMatch: props.version });
    props.onSaved(answer.data, answer.version ?? props.version);
  });
  const full = product.images.length >= MAX_PRODUCT_IMAGES;
  return (
    <section aria-labelledby="pictures-title" class="pictures-editor">
      <h2 id="pictures-title">Pictures</h2>
      {product.images.length === 0 ? (
        <p class="muted">No pictures yet.</p>
      ) : (
        <ol class="picture-list">
          {product.images.map((image, i) => (
            <li key={image.imageId}>
              <img src={pictureUrl(image, 'small')} width={image.width} height={image.height} alt={`${product.name}, view ${i + 1}`} />
              <span class="person-actions">
                {i > 0 && (
                  <button
                    type="button"
                    class="secondary small"
                    disabled={changing.busy}
                    onClick={(event) => void changing.submit(event, [image, ...product.images.filter((other) => other !== image)])}
                  >
                    Show first
                  </button>
                )}
                <button
                  type="button"
                  class="secondary small"
                  disabled={changing.busy}
                  onClick={(event) =>
                    void changing.submit(
                      event,
                      product.images.filter((other) => other !== image),
                    )
                  }
                >
                  Remove picture {i + 1}
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
      <ProblemMessage problem={changing.problem} />
      <form onSubmit={(event) => void uploading.submit(event)} aria-label="Add a picture">
        <div class="field">
          <label for="picture-file">
            Add a picture (JPEG, PNG or WebP, at most {MEGABYTES} MB; {MAX_PRODUCT_IMAGES} a product)
          </label>
          <input
            key={key}
            id="picture-file"
            type="file"
            accept={PICTURE_TYPES.join(',')}
            disabled={full}
            aria-invalid={fileError(uploading.problem) ? 'true' : undefined}
            aria-describedby={fileError(uploading.problem) ? 'picture-file-error' : undefined}
            onChange={(event) => setFile((event.target as HTMLInputElement).files?.[0])}
          />
          {fileError(uploading.problem) && (
            <p class="field-error" id="picture-file-error" role="alert">
              {fileError(uploading.problem)}
            </p>
          )}
        </div>
        <button type="submit" disabled={!file || uploading.busy || full}>
          {uploading.busy ? 'Uploading…' : 'Upload picture'}
        </button>
        {full && <p class="muted">This product has {MAX_PRODUCT_IMAGES} pictures: remove one to add another.</p>}
        {uploading.done && <p class="ok">Picture added.</p>}
        {!fileError(uploading.problem) && <ProblemMessage problem={uploading.problem} />}
      </form>
    </section>
  );
}
