/// <reference lib="dom" />
// Who is signed in, for every page: undefined while asking, null when nobody.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import type { Session } from '@eventide/client/api-client.ts';
import { api } from './api.ts';

interface SessionState {
  session: Session | null | undefined;
  /** Asks the server again (after a sign-in, a sign-out, a change of profile). */
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionState>({ session: undefined, refresh: async () => {} });

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    setSession(await api.auth.session().catch(() => null));
  }, []);
  useEffect(() => void refresh(), [refresh]);
  return <SessionContext.Provider value={{ session, refresh }}>{children}</SessionContext.Provider>;
}

export const useSession = () => useContext(SessionContext);
export const isAdmin = (session: Session | null | undefined) => session?.roles.includes('admin') ?? false;
