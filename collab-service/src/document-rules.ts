// Who may do what to a collaborative document over HTTP: the rules the table's `owner` routes of
// the collab service name (the mount applies them beside each handler). Members read, the owner
// shares, editors name versions; admins may do all of it. The WebSocket's messages take the same
// parts through sharedb/access.ts.
import type { AccessRecord } from '@eventide/contract/resources/documents/schemas.ts';
import { ROLE_MAY } from '@eventide/contract/resources/documents/roles.ts';
import type { Ownership } from '@eventide/platform/http/mount.ts';
import { actsAsAdmin } from '@eventide/kernel/models/principal.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { isMember, roleIn, type DocumentAccess } from './sharedb/access.ts';

export type DocumentRule = Ownership<AccessRecord | undefined, AccessRecord>;

/** Of its members, those who may edit it (and admins) name versions and take names off. */
export function editing(member: DocumentRule): DocumentRule {
  return {
    load: member.load,
    check(who, record, params): asserts record is AccessRecord {
      member.check(who, record, params);
      const role = who.type === 'user' ? roleIn(record, who.userId) : undefined;
      if (!actsAsAdmin(who) && !(role && ROLE_MAY[role].edit)) {
        throw refuse.forbidden(`only those who may edit ${params.id} name its versions`);
      }
    },
  };
}

/** A document's members (its owner, editors and viewers) and admins may open it; to anyone else it does not exist. */
export function members(access: DocumentAccess): DocumentRule {
  return {
    load: ({ id }) => access.record(id),
    check(who, record, { id }): asserts record is AccessRecord {
      if (!record || !(actsAsAdmin(who) || (who.type === 'user' && isMember(record, who.userId)))) throw refuse.notFound(`document ${id}`);
    },
  };
}

/** Of its members, the owner (and admins) share and unshare it. */
export function owner(access: DocumentAccess): DocumentRule {
  const member: DocumentRule = members(access);
  return {
    load: member.load,
    check(who, record, params): asserts record is AccessRecord {
      member.check(who, record, params);
      if (!actsAsAdmin(who) && (who.type !== 'user' || record.owner !== who.userId)) {
        throw refuse.forbidden(`only the owner of ${params.id} and administrators share it`);
      }
    },
  };
}
