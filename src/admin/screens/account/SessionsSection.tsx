/**
 * Where the account is signed in, and signing out of all of it at once
 * (this browser too).
 */
import { useState } from "react";
import type { SessionView } from "../../../shared/admin/account.ts";
import { useSession } from "../../auth/session.tsx";
import { Moment } from "../people/Moment.tsx";
import { describeDevice } from "./device.ts";

export function SessionsSection({ sessions }: { sessions: SessionView[] }) {
  const { signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);

  return (
    <section className="panel account-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      <ul className="sessions">
        {sessions.map((session) => (
          <li key={session.createdAt + session.ip + session.userAgent}>
            <span className="session-device">
              {describeDevice(session.userAgent)}
              {session.current ? <span className="badge">This browser</span> : null}
            </span>
            <span className="session-meta">
              {session.ip} · signed in <Moment iso={session.createdAt} /> · last active{" "}
              <Moment iso={session.lastSeenAt} />
            </span>
          </li>
        ))}
      </ul>
      <div>
        <button
          type="button"
          className="button"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOut(true);
          }}
        >
          Sign out everywhere
        </button>
        <p className="field-hint sessions-hint">
          This browser too: you will need to sign in again.
        </p>
      </div>
    </section>
  );
}
