// The collab service's HTTP routes: the editor page and its script, the caller's documents and
// new ones, a document's text now or as it was (at a version or a time), and who may edit it.
import Router from '@koa/router';
import { requireUser } from '@eventide/shared/auth/session.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { validate } from '@eventide/shared/http/validate.ts';
import {
  documentId,
  newDocumentBody,
  documentReadQuery as readQuery,
  shareBody,
  editorId as userId,
} from '@eventide/shared/api/documents.ts';
import type { limiter } from '@eventide/shared/auth/rate-limit.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import type { DocumentLibrary } from './library.ts';
import type { DocumentAccess } from './sharedb/access.ts';
import type { documentReader } from './documents.ts';
import type { EditorAssets } from './web/assets.ts';

export interface CollabRouteDeps {
  access: DocumentAccess;
  reader: ReturnType<typeof documentReader>;
  editor: EditorAssets;
  library: DocumentLibrary;
  /** Spends one of the caller's lookups of a person to share with (each is a question about who has an account). */
  limitLookups: ReturnType<typeof limiter>;
}

export function collabRoutes({ access, reader, editor, library, limitLookups }: CollabRouteDeps): Router {
  const router = new Router({ prefix: '/collab' });

  router.get('/editor', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    // The page runs only its own script and talks only to its own origin.
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'",
    );
    ctx.body = editor.html;
  });
  router.get('/editor.js', async (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = await editor.script();
  });
  router.get('/editor.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = editor.css;
  });

  const memberOnly = async (ctx: Parameters<Parameters<Router['get']>[1]>[0]) => {
    const user = requireUser(ctx);
    const id = validate(documentId, ctx.params.id, 'id');
    // A document someone may not open answers exactly like one that does not exist.
    if (!(await access.canEdit(user, id)) || !(await access.record(id))) throw problems.notFound(`document ${id}`);
    return { user, id };
  };

  router.get('/documents', async (ctx) => {
    const user = requireUser(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { items: await library.list(user) };
  });

  router.post('/documents', async (ctx) => {
    const user = requireUser(ctx);
    const { title } = await readBody(ctx, newDocumentBody);
    const created = await library.create(user, title);
    ctx.status = 201;
    ctx.set('Location', `/collab/documents/${created.id}`);
    ctx.body = created;
  });

  router.get('/documents/:id', async (ctx) => {
    const { id } = await memberOnly(ctx);
    const query = parseQuery(ctx, readQuery, 'query');
    if (query.version !== undefined) {
      const current = await reader.current(id);
      if (query.version > current.version) throw problems.invalidField('version', `the document is at version ${current.version}`);
      ctx.body = await reader.atVersion(id, query.version);
    } else if (query.at !== undefined) {
      ctx.body = await reader.atTime(id, new Date(query.at));
    } else {
      ctx.body = await reader.current(id);
    }
  });

  router.get('/documents/:id/access', async (ctx) => {
    const { id } = await memberOnly(ctx);
    ctx.body = await access.record(id);
  });

  router.get('/documents/:id/people', async (ctx) => {
    const { id } = await memberOnly(ctx);
    ctx.body = await library.people(id);
  });

  const manage = async (ctx: Parameters<Parameters<Router['post']>[1]>[0]) => {
    const { user, id } = await memberOnly(ctx);
    if (!(await access.canManage(user, id))) throw problems.forbidden(`only the owner of ${id} and administrators share it`);
    return { user, id };
  };

  router.post('/documents/:id/editors', async (ctx) => {
    const { user, id } = await manage(ctx);
    const target = await readBody(ctx, shareBody);
    await limitLookups(ctx, `user:${user.id}`);
    const other = await library.findPerson(user, target);
    const record = (await access.record(id))!;
    if (other === record.owner) throw problems.unprocessable(target.email ? 'email' : 'name', 'this is the owner of the document');
    await access.setEditor(id, other, true);
    ctx.body = await library.people(id);
  });

  const share = (editor: boolean) => async (ctx: Parameters<Parameters<Router['put']>[1]>[0]) => {
    const { id } = await manage(ctx);
    const other = validate(userId, ctx.params.userId, 'userId');
    ctx.body = await access.setEditor(id, other, editor);
  };
  router.put('/documents/:id/editors/:userId', share(true));
  router.delete('/documents/:id/editors/:userId', share(false));
  return router;
}
