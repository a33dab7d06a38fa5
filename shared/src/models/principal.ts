// Who asks the domain to act: a signed-in user, who may be an admin, or the system itself (the
// admin command line, the seed), which acts with an admin's authority. Rules that depend on who
// acts (an order's life cycle) take this, never a session or a request.

export type Principal = { type: 'user'; userId: string; admin: boolean } | { type: 'system'; name: string };

/** Whether the principal acts with an admin's authority. */
export const actsAsAdmin = (who: Principal): boolean => who.type === 'system' || who.admin;

/** Whether the principal may act on what `ownerId` owns: its owner, or anyone with an admin's authority. */
export const mayActFor = (who: Principal, ownerId: string | undefined): boolean =>
  actsAsAdmin(who) || (who.type === 'user' && who.userId === ownerId);
