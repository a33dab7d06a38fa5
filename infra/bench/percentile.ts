// The sample at quantile `q` (0.5, 0.99) of a set of timings: what every benchmark and the load run report.
export const p = (samples: number[], q: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
