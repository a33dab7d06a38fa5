// What each resource a live stream can follow is on that stream, derived from its read route
// (GET /orders/{id} and the others): who may see one of its entities is that route's access in
// the table (with the route's own ownership rule for an `owner` route), and what a change
// carries is what that route answers, in the current version. Nothing here is a second copy of a
// rule: a change to the table or to the ownership rule changes the stream with it.
import type { ChangeResource } from '@eventide/contract/resources/live/changes.ts';
import { OPERATIONS, type OperationName } from '@eventide/contract/operations.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import { SHAPES } from '@eventide/contract/routes.ts';
import { CURRENT_API_VERSION } from '@eventide/contract/versions.ts';
import type { Ownership } from '@eventide/platform/http/mount.ts';
import { Refusal } from '@eventide/kernel/models/refusal.ts';
import { actsAsAdmin, isSelfOrAdmin, type UserPrincipal } from '@eventide/kernel/models/principal.ts';
import type { Collection, ReadDocument, ReadFields, ReadStore } from '@eventide/stores/read-store/port.ts';
import { readOwnership } from '../ownership.ts';

interface LiveResource<C extends Collection> {
  /** The route that reads one entity: its access is the stream's. */
  read: OperationName;
  render: (fields: ReadFields[C]) => unknown;
  /** The read route's rule, when its access is `owner`. */
  ownership?: Ownership<ReadDocument<C> | undefined, ReadDocument<C>>;
}

export type LiveResources = { [C in ChangeResource]: LiveResource<C> };

export function liveResources(readStore: ReadStore): LiveResources {
  return {
    orders: {
      read: 'getOrder',
      render: SHAPES.getOrder.representations.represent[CURRENT_API_VERSION],
      ownership: readOwnership(readStore),
    },
    products: { read: 'getProduct', render: productView },
    users: { read: 'getUser', render: SHAPES.getUser.representations.represent[CURRENT_API_VERSION] },
  };
}

/** Whether `who` may read the entity: what its read route would admit them to. */
export function mayRead<C extends ChangeResource>(resource: LiveResource<C>, who: UserPrincipal, doc: ReadDocument<C>): boolean {
  const access = OPERATIONS[resource.read].access;
  switch (access) {
    case 'public':
    case 'signed-in':
      return true;
    case 'admin':
      return actsAsAdmin(who);
    case 'self':
      return isSelfOrAdmin(who, doc.id);
    case 'owner': {
      const { ownership } = resource;
      if (!ownership) throw new Error(`${resource.read} is an owner route: its live resource needs its ownership rule`);
      // Asked as a question, not asserted: the rule refuses (throws) whoever may not read it.
      const check = ownership.check as (who: UserPrincipal, loaded: ReadDocument<C>, params: { id: string }) => void;
      try {
        check.call(ownership, who, doc, { id: doc.id });
        return true;
      } catch (error) {
        if (error instanceof Refusal) return false;
        throw error;
      }
    }
    case 'signed-out':
      return false;
  }
}
