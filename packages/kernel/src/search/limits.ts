// GET /search's limits, apart from its schemas so that a browser bundle can use them without zod.
export const SEARCH_MIN = 3;
export const SEARCH_MAX = 200;
export const SEARCH_MAX_LIMIT = 50;
/** Words of a query: each one narrows the search, so more only cost. */
export const SEARCH_MAX_WORDS = 8;
