// How many long-lived connections of one kind (collab WebSockets, live change streams) each user
// holds on this process, so that one account cannot open them without end: each holds buffers and
// a share of the server's attention. A place is taken before the connection is accepted, in one
// synchronous step, so concurrent requests cannot all slip under the limit.
export class UserConnections {
  private readonly held = new Map<string, number>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Takes a place for the user; the result gives it back (once), or is undefined when none is left. */
  take(userId: string): (() => void) | undefined {
    const count = this.held.get(userId) ?? 0;
    if (count >= this.max) return undefined;
    this.held.set(userId, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.held.get(userId) ?? 1) - 1;
      if (left > 0) this.held.set(userId, left);
      else this.held.delete(userId);
    };
  }
}
