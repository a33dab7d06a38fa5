// Who asks the domain to act: a signed-in user, who may be an admin, or the system itself (the
// admin command line, the seed), which acts with an admin's authority. Rules that depend on who
// acts (an order's life cycle) take this, never a session or a request.

export type Principal = UserPrincipal | { type: 'system'; name: string };
/** The roles an account may be granted: its sessions carry them, and the principal made of one says `admin`. */
export type Role = 'admin';
export type UserPrincipal = { type: 'user'; userId: string; admin: boolean };

/** Whether the principal acts with an admin's authority. */
export const actsAsAdmin = (who: Principal): boolean => who.type === 'system' || who.admin;

/** The `self` rule of the route table: the user named, or anyone with an admin's authority. */
export const isSelfOrAdmin = (who: Principal, userId: string): boolean =>
  actsAsAdmin(who) || (who.type === 'user' && who.userId === userId);

/** Who may know a person's name where another's change shows it (a history): themself, or an admin; the `self` rule. */
export const mayKnowPerson = (who: Principal, userId: string): boolean => isSelfOrAdmin(who, userId);
