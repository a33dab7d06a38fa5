// The WebSocket floor: a bare `ws` server that sends every message straight back.
import { WebSocketServer } from 'ws';

const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
server.on('connection', (socket) => socket.on('message', (data) => socket.send(data, { binary: false })));
server.on('listening', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
