import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { payloadSchemas } from './catalogue.ts';
import { compatibilityProblems, currentCatalogue, fieldsLeftOut, jsonSchemaOf, readPublished, type Catalogue } from './compatibility.ts';
import { currentSchemaVersion, NewerEventVersionError, upcast, type Payload } from './versions.ts';

describe('the compatibility gate', () => {
  it('passes the catalogue as it is, against every version published', () => {
    expect(compatibilityProblems(currentCatalogue(), readPublished())).toEqual([]);
  });

  // A deliberate incompatible change: product:created gains a required weight, as a developer
  // would first write it, without a new version or an upcaster.
  const withWeight = (catalogue: Catalogue): Catalogue => {
    const event = catalogue['product:created']!;
    return {
      ...catalogue,
      'product:created': {
        ...event,
        schema: (payloadSchemas['product:created'] as z.ZodObject).extend({ weightGrams: z.number().int().positive() }),
        example: { ...event.example, weightGrams: 1200 },
      },
    };
  };

  /** product:created's current version, and every one before it. */
  const current = currentSchemaVersion('product:created');
  const versions = Array.from({ length: current }, (_, i) => i + 1);

  it('fails a schema changed without a new version, saying what to do', () => {
    const problems = compatibilityProblems(withWeight(currentCatalogue()), readPublished());
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^product:created changed since its version ${current} was published, .* make the change version ${current + 1}, with an upcaster from ${current}`,
        ),
      ),
      // And what was written before would no longer read.
      ...versions.map((v) =>
        expect.stringMatching(
          new RegExp(`^product:created version ${v}'s published example does not read as version ${current}: weightGrams: `),
        ),
      ),
    ]);
  });

  it('fails a new version whose upcaster leaves older events unreadable, naming the field', () => {
    const changed = withWeight(currentCatalogue());
    const event = changed['product:created']!;
    // The next version, with an upcaster that forgets the new field.
    const forgetful = { ...changed, 'product:created': { ...event, upcasters: [...event.upcasters, (data: Payload) => data] } };
    const published = readPublished();
    published['product:created']![String(current + 1)] = { schema: jsonSchemaOf(event.schema), example: event.example };
    const problems = compatibilityProblems(forgetful, published);
    expect(problems).toEqual(
      versions.map((v) =>
        expect.stringMatching(
          new RegExp(`^product:created version ${v}'s published example does not read as version ${current + 1}: weightGrams: `),
        ),
      ),
    );
    // With an upcaster that states what older products do not know, it passes.
    const upcasting = {
      ...changed,
      'product:created': { ...event, upcasters: [...event.upcasters, (data: Payload) => ({ ...data, weightGrams: 1 })] },
    };
    expect(compatibilityProblems(upcasting, published)).toEqual([]);
  });

  it('fails a version published that the catalogue no longer reaches', () => {
    const published = readPublished();
    published['order:deleted']!['2'] = published['order:deleted']!['1']!;
    expect(compatibilityProblems(currentCatalogue(), published)).toEqual([
      expect.stringMatching(/^order:deleted version 2 was published, but this catalogue is at 1/),
    ]);
  });

  it('fails an example that leaves out a field, since it could not catch that field removed', () => {
    const catalogue = currentCatalogue();
    const { sku: _, ...changes } = catalogue['product:updated']!.example.changes as Record<string, never>;
    catalogue['product:updated'] = { ...catalogue['product:updated']!, example: { ...catalogue['product:updated']!.example, changes } };
    expect(compatibilityProblems(catalogue, readPublished())).toEqual([
      'the example of product:updated leaves out changes.sku: an example shows every field',
    ]);
  });

  it('finds the fields an example leaves out inside arrays and nullable values', () => {
    const schema = jsonSchemaOf(
      z.strictObject({ lines: z.array(z.strictObject({ a: z.number(), b: z.number().optional() })), note: z.string().nullable() }),
    );
    expect(fieldsLeftOut(schema, { lines: [{ a: 1 }], note: null })).toEqual(['lines[].b']);
    expect(fieldsLeftOut(schema, { lines: [] })).toEqual(['lines[]', 'note']);
  });
});

describe('upcasting', () => {
  it('reads a product listed before tax rates as one whose rate is not stated', () => {
    const v1 = { productId: 'p', name: 'Kettle', description: '', price: { amount: 2999, currency: 'EUR' }, sku: null, category: null };
    expect(upcast('product:created', 1, v1)).toEqual({ ...v1, taxRate: null, images: [] });
    expect(payloadSchemas['product:created'].parse(upcast('product:created', 1, v1))).toBeTruthy();
  });

  it('leaves a payload of the current version as it is', () => {
    const data = { orderId: 'o' };
    expect(currentSchemaVersion('order:deleted')).toBe(1);
    expect(upcast('order:deleted', 1, data)).toBe(data);
  });

  it('refuses a version newer than this release knows, and one that is no version', () => {
    const newer = currentSchemaVersion('product:created') + 1;
    expect(() => upcast('product:created', newer, {})).toThrow(NewerEventVersionError);
    expect(() => upcast('product:created', newer, {})).toThrow(
      new RegExp(`product:created version ${newer} is newer than this release knows \\(${newer - 1}\\)`),
    );
    expect(() => upcast('product:created', 0, {})).toThrow(RangeError);
    expect(() => upcast('product:created', 1.5, {})).toThrow(RangeError);
  });
});
