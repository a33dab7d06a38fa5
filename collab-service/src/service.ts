// The collab service as one part of a process (packages/runtime/src/compose.ts): its routes on
// the HTTP app, its WebSocket on the server once it listens. Users sign in through the command
// service; the session store (and so the cookie) is the platform's.
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { answering } from '@eventide/runtime/readiness.ts';
import { openCollab, openCollabSections, type CollabWiring } from './wire.ts';
import { superviseCollab, type SupervisedCollab } from './supervised.ts';

export interface CollabService extends Service {
  collab: SupervisedCollab;
}

export function collabService(options: Pick<CollabWiring, 'clock' | 'checkEveryMs'> = {}): ServiceFactory<CollabService> {
  return async ({ config, log, auth: openAuth, readModels, personalData, metrics }) => {
    const auth = await openAuth();
    const read = await readModels();
    // Started again, while the rest of the process serves, when its store dies (supervised.ts).
    const collab = await superviseCollab((once) => openCollab(config, { auth, readStore: read.store, log, ...once, ...options }), {
      log,
      personalData,
      metrics,
    });
    return {
      collab,
      api: { service: 'collab' as const, handlers: collab.handlers },
      health: () => ({ collab: collab.description, auth: auth.description, readStore: read.description }),
      probes: () => [
        answering('collabStore', () => collab.probe()),
        ...(collab.pubsubProbe ? [answering('collabPubSub', collab.pubsubProbe)] : []),
      ],
      attach: (server) => void collab.attach(server),
      disconnect: () => collab.disconnect(),
      close: () => collab.close(),
    };
  };
}

/**
 * The documents' part of a person's export alone, for a process that serves exports without the
 * collab service (the site process of a split deployment: infra/src/site.ts).
 */
export function collabPersonalData(): ServiceFactory<Service> {
  return async ({ config, auth, personalData }) => {
    const sections = await openCollabSections(config, { auth: await auth(), personalData });
    return { health: () => ({ collabSections: sections.description }), close: () => sections.close() };
  };
}
