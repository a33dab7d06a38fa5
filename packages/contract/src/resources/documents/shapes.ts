// What each of documents/operations.ts's operations takes and answers.
import { z } from 'zod';
import type { PathParameter, Shape } from '../../shape.ts';
import { noContent, redirect } from '../../shape-parts.ts';
import type { DOCUMENT_OPERATIONS } from './operations.ts';
import {
  accessRecord,
  documentId,
  documentList,
  documentPeople,
  documentReadQuery,
  documentSummary,
  documentText,
  editorId,
  newDocumentBody,
  shareBody,
} from './schemas.ts';
import { documentTimeline, namedVersion, nameVersionBody, versionParam } from './versions.ts';

const document: PathParameter<string> = { schema: documentId, names: 'document' };
const editor: PathParameter<string> = { schema: editorId, names: 'user' };

/** Giving someone a part in a document, or taking it: the access record after it. */
const personAccess = {
  params: { id: document, userId: editor },
  answers: { 200: { description: 'the access record now', body: accessRecord } },
} satisfies Shape;

export const DOCUMENT_SHAPES = {
  openEditor: {
    query: z.strictObject({ doc: documentId.optional() }),
    answers: { 302: redirect('to the document in the web app; Location names it') },
  },
  listDocuments: { answers: { 200: { description: 'the documents', body: documentList } } },
  createDocument: { body: newDocumentBody, answers: { 201: { description: 'the document; Location names it', body: documentSummary } } },
  getDocument: {
    params: { id: document },
    query: documentReadQuery,
    answers: { 200: { description: 'its text, version and times', body: documentText } },
  },
  getDocumentAccess: { params: { id: document }, answers: { 200: { description: 'the owner and the editors', body: accessRecord } } },
  getDocumentPeople: { params: { id: document }, answers: { 200: { description: 'the owner and the editors', body: documentPeople } } },
  shareDocument: {
    params: { id: document },
    body: shareBody,
    answers: { 200: { description: 'the owner and the editors now', body: documentPeople } },
  },
  addEditor: personAccess,
  removeEditor: personAccess,
  addViewer: personAccess,
  removeViewer: personAccess,
  listVersions: { params: { id: document }, answers: { 200: { description: 'the timeline', body: documentTimeline } } },
  nameVersion: {
    params: { id: document },
    body: nameVersionBody,
    answers: { 201: { description: 'the named version; Location is its text', body: namedVersion } },
  },
  forgetVersion: { params: { id: document, version: { schema: versionParam, names: 'named version' } }, answers: { 204: noContent } },
} as const satisfies { [K in keyof typeof DOCUMENT_OPERATIONS]: Shape };
