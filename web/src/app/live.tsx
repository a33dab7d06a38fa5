/// <reference lib="dom" />
// Pages that move by themselves: a page names the resources it shows, and while it is open and
// someone is signed in, each change the server says they may see comes to it (GET /changes,
// docs/api.md#live), over the tab's one stream. When the stream opens, and whenever it cannot say what was missed, the page
// loads what it shows again, so that nothing changed between its first load and the stream is lost.
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { ChangeEvent, ChangeResource } from '@eventide/client/api-client.ts';
import { api } from './api.ts';
import { useSession } from './session.tsx';

export type Change = Extract<ChangeEvent, { type: 'changed' | 'deleted' }>;

export interface LiveHandlers {
  /** Load what the page shows: the stream is open, or it lost track. */
  reload(): void;
  change(change: Change): void;
}

export type LiveState = 'off' | 'connecting' | 'live';

interface Live {
  state: LiveState;
  listen(listener: LiveHandlers): () => void;
}

const LiveContext = createContext<Live>({ state: 'off', listen: () => () => {} });

/**
 * One stream per tab, whatever the page shows, for the signed-in user: a browser holds few
 * connections to one site, and the server bounds each user's streams (LIVE_STREAMS_PER_USER).
 */
export function LiveProvider({ children }: { children: ComponentChildren }) {
  const { session } = useSession();
  const [state, setState] = useState<LiveState>('off');
  const listeners = useRef(new Set<LiveHandlers>());
  useEffect(() => {
    if (!session) return;
    const controller = new AbortController();
    const each = (act: (listener: LiveHandlers) => void) => {
      for (const listener of listeners.current) act(listener);
    };
    setState('connecting');
    let opened = false;
    void (async () => {
      try {
        for await (const event of api.changes({}, { signal: controller.signal })) {
          if (event.type === 'ready') {
            setState('live');
            if (!opened) each((listener) => listener.reload());
            opened = true;
          } else if (event.type === 'reset') each((listener) => listener.reload());
          else each((listener) => listener.change(event));
        }
      } catch {
        // Refused (too many tabs, a session that ended): pages still work, without moving.
      }
      if (!controller.signal.aborted) setState('off');
    })();
    return () => {
      controller.abort();
      setState('off');
    };
  }, [session?.userId]);
  const listen = (listener: LiveHandlers) => {
    listeners.current.add(listener);
    return () => listeners.current.delete(listener);
  };
  return <LiveContext.Provider value={{ state, listen }}>{children}</LiveContext.Provider>;
}

/** The changes to `resources` while the component is shown; the state is for the page to show. */
export function useLive(resources: readonly ChangeResource[], handlers: LiveHandlers): LiveState {
  const { state, listen } = useContext(LiveContext);
  // The latest handlers, without listening again each render.
  const latest = useRef(handlers);
  latest.current = handlers;
  const key = resources.join(',');
  useEffect(
    () =>
      listen({
        reload: () => latest.current.reload(),
        change: (change) => resources.includes(change.resource) && latest.current.change(change),
      }),
    [key],
  );
  return state;
}

/** Says whether the page moves by itself. */
export function LiveBadge({ state }: { state: LiveState }) {
  if (state === 'off') return null;
  return (
    <span class={`live-badge ${state}`} role="status" title="Changes appear here as they happen, without reloading">
      {state === 'live' ? 'Live' : 'Connecting…'}
    </span>
  );
}

/**
 * A list as a change leaves it: an entity already shown is replaced (unless what is shown is
 * newer) or dropped when deleted or no longer wanted; a new one is put first, where a list that
 * is newest first shows it.
 */
export function applyChange<T extends { version: number }>(
  items: T[],
  change: Change,
  idOf: (item: T) => string,
  wanted: (item: T) => boolean = () => true,
): T[] {
  const at = items.findIndex((item) => idOf(item) === change.id);
  if (at >= 0 && items[at]!.version >= change.version) return items;
  if (change.type === 'deleted' || !wanted(change.body as unknown as T)) return at >= 0 ? items.filter((_, i) => i !== at) : items;
  const body = change.body as unknown as T;
  return at >= 0 ? items.map((item, i) => (i === at ? body : item)) : [body, ...items];
}

/**
 * Keeps a shown list of `resource` moving: each change applied to it (applyChange, with `wanted`
 * saying what belongs in it), and the list loaded again when the stream asks. `update` hands the
 * list shown to a function that returns the next.
 */
export function useLiveList<T extends { version: number }>(
  resource: ChangeResource,
  {
    reload,
    update,
    idOf,
    wanted,
  }: {
    reload: () => void;
    update: (next: (shown: T[]) => T[]) => void;
    idOf: (item: T) => string;
    wanted?: (item: T) => boolean;
  },
): LiveState {
  return useLive([resource], {
    reload,
    change: (change) => update((shown) => applyChange(shown, change, idOf, wanted)),
  });
}
