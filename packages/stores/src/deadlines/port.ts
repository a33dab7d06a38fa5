// The deadline schedule: for each running process instance with a deadline (an order's payment:
// command-service/src/deadlines), the next thing it has to do and when. What a process decided is in
// the log, in its own stream; this is only the index of when to look at it again, so that a process
// starting finds what is due without reading the log. Written by whoever acts on a process (any
// number of processes), each time from the state it has just read from the log: a row written from
// an older state costs an early look, which reads the stream and writes the row again.

export interface ScheduledDeadline {
  /** The process instance's stream: its id in the schedule. */
  key: string;
  /** Which process (`payment-deadline`). */
  process: string;
  /** What it is about (the order's id). */
  subject: string;
  /** What it does next (`remind`, `expire`). */
  next: string;
  /** When that is due, in milliseconds since the epoch. */
  at: number;
  /** When the deadline itself passes (the same as `at` once only it is left). */
  deadline: number;
}

export interface DeadlineSchedule {
  /** Sets these rows (by key) and takes the others named off, in one write. */
  put(rows: readonly ScheduledDeadline[], cleared: readonly string[]): Promise<void>;
  /** Rows due at `now` or before, the earliest first. */
  due(now: number, limit: number): Promise<ScheduledDeadline[]>;
  /** When the earliest row is due; undefined when none is. */
  earliest(): Promise<number | undefined>;
  /** Rows in the order they are due (by `at`, then key), after the one given: an admin's page. */
  list(options: { after?: { at: number; key: string } | undefined; limit: number }): Promise<ScheduledDeadline[]>;
  count(): Promise<number>;
  close(): Promise<void>;
}
