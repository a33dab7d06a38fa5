/** One route's load: requests per second and p99 latency (ms). */
export type Measured = { requestsPerSecond: number; p99: number };
