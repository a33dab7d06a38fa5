// What each of site/operations.ts's operations takes and answers: the API's description, the web
// app's files, health.
import { z } from 'zod';
import type { Shape } from '../../shape.ts';
import { file, healthJson, html, unchanged } from '../../shape-parts.ts';
import type { SITE_OPERATIONS } from './operations.ts';

export const SITE_SHAPES = {
  openApi: { answers: { 200: file('the document', 'application/json'), 304: unchanged } },
  docsPage: { answers: { 200: html('the page') } },
  asyncApi: { answers: { 200: file('the document', 'application/json'), 304: unchanged } },
  eventsPage: { answers: { 200: file('the page', 'text/html'), 304: unchanged } },
  versioningPage: { answers: { 200: html('the page') } },
  docsAssetinitjs: { answers: { 200: file('the file', 'text/javascript'), 304: unchanged } },
  docsAssetswaggeruibundlejs: { answers: { 200: file('the file', 'text/javascript'), 304: unchanged } },
  docsAssetswaggeruicss: { answers: { 200: file('the file', 'text/css'), 304: unchanged } },
  appPage: { answers: { 200: html('the page') } },
  appScript: { answers: { 200: file('the script', 'text/javascript'), 304: unchanged } },
  appStyle: { answers: { 200: file('the style sheet', 'text/css'), 304: unchanged } },
  appChunk: {
    params: { file: { schema: z.string().regex(/^[A-Za-z0-9_-]{1,100}\.js$/), names: 'part of the web app' } },
    answers: { 200: file('the script', 'text/javascript'), 304: unchanged },
  },
  health: { answers: { 200: { description: 'it answers', body: z.strictObject({ status: z.literal('ok') }) } } },
  healthLive: { answers: { 200: healthJson('pass') } },
  healthReady: { answers: { 200: healthJson('every check passes'), 503: healthJson('a check failed: which, and why') } },
} as const satisfies { [K in keyof typeof SITE_OPERATIONS]: Shape };
