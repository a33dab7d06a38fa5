// A server-sent event stream of the API read raw, for what the typed clients hide (status,
// headers, ids, Last-Event-ID), with every message held to /asyncapi.json as it arrives: a
// message the document does not describe fails the test that reads it.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { asyncApiChecker } from './asyncapi-messages.ts';

let checker: ReturnType<typeof asyncApiChecker> | undefined;

export interface RawStream {
  response: Response;
  /** A refusal's problem document, read whole. */
  refusal: { type: string; status: number; detail: string } | undefined;
  /** The messages up to the first that `matches` (reading until it comes); each checked against the document. */
  until(matches: (message: EventSourceMessage) => boolean): Promise<EventSourceMessage[]>;
  close(): void;
}

/** `path` (`/changes?of=orders`, `/events?after=0`) of the site at `url`, with the given cookie and headers. */
export async function openStream(url: string, path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  checker ??= asyncApiChecker('');
  const stream = new URL(path, url).pathname;
  const controller = new AbortController();
  const response = await fetch(url + path, { headers, signal: controller.signal });
  const refusal = response.ok ? undefined : await response.json();
  const arrived: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (message) => {
      const problems = checker!.streamProblemsOf(stream, { event: message.event ?? 'message', id: message.id ?? '', data: message.data });
      if (problems.length > 0) throw new Error(`${stream} sent what /asyncapi.json does not describe: ${problems.join('; ')}`);
      arrived.push(message);
    },
  });
  const reader = response.ok ? response.body!.getReader() : undefined;
  const decoder = new TextDecoder();
  return {
    response,
    refusal,
    async until(matches) {
      for (;;) {
        const at = arrived.findIndex(matches);
        if (at >= 0) return arrived.splice(0, at + 1);
        const { value, done } = await reader!.read();
        if (done) throw new Error(`the stream ended; it sent ${JSON.stringify(arrived)}`);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    },
    close: () => controller.abort(),
  };
}
