// The shape of a person's data export (GET /users/{id}/export, docs/privacy.md#export): one JSON
// document of everything the system holds about them, each section from the part that holds it.
import { z } from 'zod';
import { DOCUMENT_ROLES } from '../documents/schemas.ts';
import { orderV2Body } from '../orders/schemas.ts';
import { userV2Body } from './schemas.ts';

/** The sections, in the order the document gives them; each comes from the service that holds it. */
export const EXPORT_SECTIONS = ['profile', 'profileHistory', 'signIn', 'orders', 'documents'] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];

export const exportSections = {
  /** As GET /users/{id} answers it; null when the read models have no live user. */
  profile: userV2Body.nullable(),
  /** Every event of the user's own stream, oldest first, as it reads now (forgotten fields null). */
  profileHistory: z.array(
    z.strictObject({
      type: z.string(),
      revision: z.number().int().min(0),
      time: z.iso.datetime(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  /** How the person signs in, without any secret: whether a password is set, not its hash. */
  signIn: z.strictObject({
    password: z.boolean(),
    /** Each linked provider, with the person's id there (their subject; null once they are forgotten). */
    providers: z.array(z.strictObject({ provider: z.string(), subject: z.string().nullable() })),
    /** The address a provider proved they own, if any. */
    verifiedEmail: z.string().nullable(),
    roles: z.array(z.string()),
  }),
  /** Their orders, as GET /orders/{id} answers each, newest first. */
  orders: z.array(orderV2Body),
  /** Documents they own (with the text) or edit (without: the text is the owner's). */
  documents: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      role: z.enum(DOCUMENT_ROLES),
      createdAt: z.iso.datetime().optional(),
      modifiedAt: z.iso.datetime().optional(),
      text: z.string().nullable().optional(),
    }),
  ),
} satisfies Record<ExportSection, z.ZodType>;

export type ExportSectionData = { [S in ExportSection]: z.infer<(typeof exportSections)[S]> };

export const personalDataExport = z.strictObject({
  userId: z.string(),
  exportedAt: z.iso.datetime(),
  profile: exportSections.profile.optional(),
  profileHistory: exportSections.profileHistory.optional(),
  signIn: exportSections.signIn.optional(),
  orders: exportSections.orders.optional(),
  documents: exportSections.documents.optional(),
  /**
   * Sections this process could not give because the service that holds them runs elsewhere
   * (docs/privacy.md#export); empty when the export is whole.
   */
  missing: z.array(z.enum(EXPORT_SECTIONS)),
});
export type PersonalDataExport = z.infer<typeof personalDataExport>;
