// Types for the packages infra uses that ship none: only what it uses.
declare module 'popular-english-words' {
  /** English words by how often Wikipedia uses them, most used first. */
  export const words: {
    getMostPopular(count: number): string[];
    getMostPopularFilter(count: number, test: (word: string) => boolean): string[];
    getWordCount(): number;
  };
}
