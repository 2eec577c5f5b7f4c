/**
 * Who is signed in. The console asks the server once at start; a 401 from
 * any call (the session idled out, or was ended everywhere) drops back to
 * the sign-in screen, which keeps the page the person was on.
 */
import {
  createContext,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from "react";
import type { Me } from "../../shared/admin/auth.ts";
import { api, sessionEnded } from "../api/client.ts";
import { failureText } from "../api/refusal.ts";

interface SessionState {
  /** undefined while asking, null when nobody is signed in. */
  me: Me | null | undefined;
  signedIn(me: Me): void;
  signOut(everywhere?: boolean): Promise<void>;
  /** Why the last session ended, shown on the sign-in screen. */
  endedBecause: string | null;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [endedBecause, setEndedBecause] = useState<string | null>(null);

  useEffect(() => {
    api
      .call("session.read")
      .then((state) => setMe(state.me))
      .catch((error: unknown) => {
        setMe(null);
        setEndedBecause(failureText(error));
      });
    const onEnded = () =>
      setMe((current) => {
        if (current) setEndedBecause("Your session has ended. Please sign in again.");
        return null;
      });
    sessionEnded.addEventListener("ended", onEnded);
    return () => sessionEnded.removeEventListener("ended", onEnded);
  }, []);

  const signedIn = useCallback((next: Me) => {
    setEndedBecause(null);
    setMe(next);
  }, []);

  const signOut = useCallback(async (everywhere = false) => {
    await api.call(everywhere ? "session.signOutEverywhere" : "session.signOut").catch(() => {});
    setEndedBecause(null);
    setMe(null);
  }, []);

  const value = useMemo(
    () => ({ me, signedIn, signOut, endedBecause }),
    [me, signedIn, signOut, endedBecause],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionState {
  const session = use(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
}

/** The signed-in person; for screens that are only shown to someone signed in. */
export function useMe(): Me {
  const { me } = useSession();
  if (!me) throw new Error("useMe with nobody signed in");
  return me;
}
