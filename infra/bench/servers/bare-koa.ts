// The HTTP floor: a bare Koa handler that reads a JSON body and answers JSON, nothing else.
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';

const app = new Koa();
app.use(async (ctx) => {
  const body = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf-8', limit: 65536 })) as Record<string, unknown>;
  ctx.status = 201;
  ctx.body = { ...body, userId: crypto.randomUUID() };
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});
