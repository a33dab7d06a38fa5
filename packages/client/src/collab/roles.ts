// What each part in a document allows, for pages to offer only what the server would let through
// (the rule is declared once, in the contract, and enforced by the server).
export { ROLE_MAY, roleIn, type DocumentRole, type SharedRole } from '@eventide/contract/resources/documents/roles.ts';
