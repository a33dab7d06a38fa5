// The Yjs peer: a Hocuspocus server with its defaults and no persistence extension (it
// broadcasts an update before storing it anywhere, where ShareDB commits first).
import { Server } from '@hocuspocus/server';

const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: true });
await server.listen();
console.log(JSON.stringify({ port: server.address.port }));
