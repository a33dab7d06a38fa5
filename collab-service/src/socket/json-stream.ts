// One WebSocket as the object stream ShareDB's agent reads and writes: a JSON object per frame.
// A frame that is not one ends the connection (1007 or 1003), and so does a client
// that stops reading while the server's buffer for it grows (1008): it will have to reload.
// Messages are read no faster than the connection's inflow allows (inflow.ts), and an op the
// connection was already sent is not sent again (sent-ops.ts).
import { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { answered, whenAnswered } from '../sharedb/answered.ts';
import { collabErrors, replyForClient, type ReplyError } from '../errors.ts';
import { Inflow, type InflowOptions } from './inflow.ts';
import { SentOps } from './sent-ops.ts';

/** Past this much unsent data the client is too far behind to catch up by streaming. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class WebSocketJsonStream extends Duplex {
  private readonly socket: WebSocket;
  private readonly sent = new SentOps();
  private readonly inflow: Inflow;
  private readonly hide: (error: ReplyError) => void;

  /** `hide` hears each error a reply carried that the client was not told as it was (errors.ts forClient). */
  /**
   * `hide` hears each error a reply carried that the client was not told as it was (errors.ts
   * forClient); `fault` each error that handling a message threw, which the client is told only
   * as ERR_INTERNAL.
   */
  constructor(socket: WebSocket, inflow: InflowOptions, hide: (error: ReplyError) => void, fault: (error: unknown) => void) {
    super({ objectMode: true });
    this.socket = socket;
    this.hide = hide;
    this.inflow = new Inflow(socket, inflow);
    socket.on('message', (data, isBinary) => {
      // Once the server has begun to close (a revoked session), nothing more is acted on.
      if (socket.readyState !== WebSocket.OPEN) return;
      if (isBinary) return socket.close(1003, 'messages are JSON text');
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return socket.close(1007, 'a message is not valid JSON');
      }
      // ShareDB's messages are objects; its agent would end the connection without a word on anything else.
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        return socket.close(1007, 'a message is a JSON object');
      }
      // ShareDB handles the message within this call, as far as it can without waiting; whatever
      // that throws is this message's failure alone: it is answered, and the connection goes on.
      try {
        this.noteRequest(message);
        whenAnswered(message, this.inflow.admit());
        this.push(message);
      } catch (error) {
        fault(error);
        this.answerFailed(message);
      }
    });
    socket.on('close', () => {
      this.inflow.close();
      this.push(null);
      this.destroy();
    });
    socket.on('error', () => this.destroy());
  }

  override _read(): void {}

  /** Answers a message whose handling threw as ShareDB answers a refused one: the message back, with the error. */
  private answerFailed(message: object): void {
    answered(message);
    const { code, message: said } = collabErrors.internal();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ ...message, error: { code, message: said } }));
  }

  /** Requests for ops from a version reset what counts as already sent for those documents. */
  private noteRequest(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const { a, c, d, v, b } = message as { a?: unknown; c?: unknown; d?: unknown; v?: unknown; b?: unknown };
    if (a === 'f' || a === 's') this.sent.asked(c, d, v);
    else if ((a === 'bf' || a === 'bs') && typeof b === 'object' && b !== null && !Array.isArray(b)) {
      for (const [id, version] of Object.entries(b)) this.sent.asked(c, id, version);
    }
  }

  override _write(message: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.readyState !== WebSocket.OPEN || this.sent.isRepeat(message as Record<string, unknown>)) {
      callback();
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.close(1008, 'too far behind: reload the document');
      callback();
      return;
    }
    // A send that fails means the socket is closing; its close event ends this stream.
    this.socket.send(JSON.stringify(replyForClient(message as Record<string, unknown>, this.hide)), () => undefined);
    callback();
  }

  override _final(callback: () => void): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    callback();
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close(1011);
    callback(error);
  }
}
