// What every site serves: the API's description, the web app (it routes in the URL's fragment, so no route per page), health: this resource's part of the route table (operations.ts). Carries no schema code, so
// that a browser bundle (the typed client) can import it; the shapes are beside it (shapes.ts).
import type { Operation } from '../../operation.ts';

export const SITE_OPERATIONS = {
  // The API's description.
  openApi: {
    service: 'docs',
    method: 'get',
    path: '/openapi.json',
    access: 'public',
    tag: 'docs',
    summary: 'This description, as OpenAPI 3.1',
  },
  docsPage: { service: 'docs', method: 'get', path: '/docs', access: 'public', tag: 'docs', summary: 'This description, readable' },
  asyncApi: {
    service: 'docs',
    method: 'get',
    path: '/asyncapi.json',
    access: 'public',
    tag: 'docs',
    summary: 'The events on Kafka (topics, keys, headers, payloads, schema versions), as AsyncAPI 3',
  },
  eventsPage: {
    service: 'docs',
    method: 'get',
    path: '/docs/events',
    access: 'public',
    tag: 'docs',
    summary: 'The events on Kafka, readable',
  },
  versioningPage: {
    service: 'docs',
    method: 'get',
    path: '/docs/versioning',
    access: 'public',
    tag: 'docs',
    summary: 'What changes between API versions, and when v1 ends',
  },
  docsAssetinitjs: {
    service: 'docs',
    method: 'get',
    path: '/docs/init.js',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (init.js)',
  },
  docsAssetswaggeruibundlejs: {
    service: 'docs',
    method: 'get',
    path: '/docs/swagger-ui-bundle.js',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (swagger-ui-bundle.js)',
  },
  docsAssetswaggeruicss: {
    service: 'docs',
    method: 'get',
    path: '/docs/swagger-ui.css',
    access: 'public',
    tag: 'docs',
    summary: 'A file of the /docs page (swagger-ui.css)',
  },
  // The web app (it routes in the URL's fragment, so no route per page).
  appPage: { service: 'web', method: 'get', path: '/', access: 'public', tag: 'app', summary: 'The web app' },
  appScript: { service: 'web', method: 'get', path: '/app.js', access: 'public', tag: 'app', summary: "The web app's script" },
  appStyle: { service: 'web', method: 'get', path: '/app.css', access: 'public', tag: 'app', summary: "The web app's style sheet" },
  appChunk: {
    service: 'web',
    method: 'get',
    path: '/app/{file}',
    access: 'public',
    tag: 'app',
    summary: "A part of the web app's script that only some pages load (the editor's), named by its content",
  },
  // Every process: health and the probes.
  health: {
    service: 'platform',
    method: 'get',
    path: '/health',
    access: 'public',
    tag: 'health',
    summary: 'Whether the process answers (what it runs is on the operator’s metrics port: docs/operations.md#health)',
  },
  healthLive: {
    service: 'platform',
    method: 'get',
    path: '/health/live',
    access: 'public',
    tag: 'health',
    summary: 'Liveness: the process answers (no store is asked)',
  },
  healthReady: {
    service: 'platform',
    method: 'get',
    path: '/health/ready',
    access: 'public',
    tag: 'health',
    summary: 'Readiness: every store the process uses answers, and the read models are not too far behind',
  },
} as const satisfies Record<string, Operation>;
