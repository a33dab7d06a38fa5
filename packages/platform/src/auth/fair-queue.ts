// Runs costly work for many clients on a few slots, fairly: at most `concurrency` tasks at once,
// each client at most `perClientRunning` of them and `perClientWaiting` more in line, and the
// line served in start-time fair order (each client's tasks are tagged one turn after its last;
// a newcomer's first task is tagged with the current turn), so a client's burst delays anyone
// else by at most one task of its own, never by the length of the burst. What no library here
// gives in one piece: p-queue and p-limit are first come, first served across clients, and
// rate-limiter-flexible's queue limits rates, not concurrent work.
import { problems } from '@eventide/contract/problems.ts';

export interface FairQueueOptions {
  concurrency: number;
  perClientRunning: number;
  perClientWaiting: number;
  /** Tasks waiting across all clients; beyond it the service is busy for everyone new. */
  maxWaiting: number;
}

interface Waiting {
  /** The turn it may start at; the smallest goes first, ties in order of arrival. */
  tag: number;
  arrival: number;
  start(): void;
  abandon(): void;
  /** Refused after it waited: another client with less in line took its place. */
  shed(): void;
  signal: AbortSignal | undefined;
}

export class FairQueue {
  private readonly options: FairQueueOptions;
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Each client's tasks in line, oldest first. */
  private readonly line = new Map<string, Waiting[]>();
  /** The turn after each client's last task: where its next one is tagged, unless that is past. */
  private readonly nextTurn = new Map<string, number>();
  /** The tag of the latest task started. */
  private turn = 0;
  private arrivals = 0;
  private waitingCount = 0;

  constructor(options: FairQueueOptions) {
    this.options = options;
  }

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /**
   * Runs `task` for `client` when its turn comes. Refuses at once, with 429, a client that
   * already has its share in line, and with 503 anyone when the whole line is full. A task whose
   * `signal` is aborted before its turn (the client went away) is dropped unrun.
   */
  run<T>(client: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const mine = this.line.get(client);
    const runningMine = this.runningBy.get(client) ?? 0;
    const mayStartNow = this.running < this.options.concurrency && runningMine < this.options.perClientRunning && !mine;
    if (!mayStartNow) {
      if ((mine?.length ?? 0) >= this.options.perClientWaiting) {
        return Promise.reject(
          problems.tooManyRequests('too many sign-ins or password changes from this client at once; wait for the others to finish', {
            'Retry-After': '1',
          }),
        );
      }
      // A full line makes room for a client with less in it than another: the costly go, not the newcomers.
      if (this.waitingCount >= this.options.maxWaiting && !this.shedForNewcomer(mine?.length ?? 0))
        return Promise.reject(problems.busy('too many sign-ins at once; try again in a moment'));
    }
    return new Promise<T>((resolve, reject) => {
      const tag = Math.max(this.turn, this.nextTurn.get(client) ?? 0);
      this.nextTurn.set(client, tag + 1);
      const entry: Waiting = {
        tag,
        arrival: this.arrivals++,
        signal,
        start: () => {
          // The slot is free before the caller hears back, so the next in line has started.
          task()
            .finally(() => this.finish(client))
            .then(resolve, reject);
        },
        abandon: () => reject(problems.busy('the request was given up before its turn')),
        shed: () => reject(problems.busy('too many sign-ins at once, this client’s among the most; try again in a moment')),
      };
      const queued = this.line.get(client);
      if (queued) queued.push(entry);
      else this.line.set(client, [entry]);
      this.waitingCount += 1;
      this.pump();
    });
  }

  /**
   * When the line is full: the newest task of the client with the longest line gives its place,
   * if that line is longer than the newcomer's would be with it. A few clients that fill the line
   * keep each other waiting; a client with nothing in it still gets its turn.
   */
  private shedForNewcomer(newcomerWaiting: number): boolean {
    let longest: Waiting[] | undefined;
    for (const queued of this.line.values()) if (!longest || queued.length > longest.length) longest = queued;
    if (!longest || longest.length <= newcomerWaiting + 1) return false;
    const given = longest.pop()!;
    this.waitingCount -= 1;
    given.shed();
    return true;
  }

  private finish(client: string): void {
    this.running -= 1;
    const left = (this.runningBy.get(client) ?? 1) - 1;
    if (left > 0) this.runningBy.set(client, left);
    else {
      this.runningBy.delete(client);
      // An idle client is forgotten, so memory follows the clients in line, not all ever seen.
      if (!this.line.has(client)) this.nextTurn.delete(client);
    }
    this.pump();
  }

  private pump(): void {
    while (this.running < this.options.concurrency) {
      const next = this.takeNext();
      if (!next) return;
      const [client, entry] = next;
      if (entry.signal?.aborted) {
        entry.abandon();
        if (!this.line.has(client) && !this.runningBy.has(client)) this.nextTurn.delete(client);
        continue;
      }
      this.running += 1;
      this.runningBy.set(client, (this.runningBy.get(client) ?? 0) + 1);
      entry.start();
    }
  }

  /** The task with the smallest tag among clients that may run one more now. */
  private takeNext(): [string, Waiting] | undefined {
    let best: [string, Waiting] | undefined;
    for (const [client, entries] of this.line) {
      if ((this.runningBy.get(client) ?? 0) >= this.options.perClientRunning) continue;
      const head = entries[0]!;
      if (!best || head.tag < best[1].tag || (head.tag === best[1].tag && head.arrival < best[1].arrival)) best = [client, head];
    }
    if (!best) return undefined;
    const [client, entry] = best;
    const entries = this.line.get(client)!;
    entries.shift();
    if (entries.length === 0) this.line.delete(client);
    this.waitingCount -= 1;
    this.turn = Math.max(this.turn, entry.tag);
    return best;
  }
}
