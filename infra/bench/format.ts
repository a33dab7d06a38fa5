// How the benchmark report writes its figures: whole numbers with separators, ratios and milliseconds to fixed places.
export const fmt = (n: number) => Math.round(n).toLocaleString('en');
export const ratio = (a: number, b: number) => (a / b).toFixed(2);
export const ms = (n: number) => n.toFixed(3);
