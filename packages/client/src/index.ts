// What `import … from '@eventide/client'` gives a browser page or a Node program: the typed
// client, its refusals, and search as a person types.
export { createApiClient } from './api-client.ts';
export type {
  Answer,
  ApiClient,
  CallOf,
  ClientOptions,
  CursorPage,
  DocumentAccess,
  DocumentPeople,
  DocumentSummary,
  DocumentText,
  OffsetPage,
  Order,
  PersonalDataExport,
  Product,
  ReadOptions,
  SearchResult,
  Session,
  User,
  WriteOptions,
} from './api-client.ts';
export { ApiProblem, retryAfterMs, type ProblemDocument } from './problem.ts';
export { SEARCH_MIN_CHARACTERS, SEARCH_WAIT_MS, searchAsYouType } from './search-as-you-type.ts';
export type { SearchAsYouType, SearchAsYouTypeOptions, SearchState } from './search-as-you-type.ts';
