/**
 * A banner over every screen while some inquiry's notification failed and
 * nobody has opened it since (the server records the first opening): the
 * firm may not know the inquiry exists. Asked again on every move between
 * screens, so it goes once each such inquiry has been opened.
 */
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { NOT_NOTIFIED_LABEL, unnotifiedBanner } from "../../shared/admin/inquiries.ts";
import { api } from "../api/client.ts";

function useUnseenFailures(): number {
  const { pathname } = useLocation();
  const [unseen, setUnseen] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each move asks again, so opened inquiries drop out
  useEffect(() => {
    let current = true;
    api
      .call("inquiries.unnotified")
      .then((answer) => current && setUnseen(answer.unseen))
      // The banner is a warning on top of the inbox's badges: without it the console still works.
      .catch(() => current && setUnseen(0));
    return () => {
      current = false;
    };
  }, [pathname]);
  return unseen;
}

export function UnnotifiedBanner() {
  const unseen = useUnseenFailures();
  if (unseen === 0) return null;
  return (
    <div className="unnotified-banner" role="status">
      <p>
        <strong>{unnotifiedBanner(unseen)}</strong> <Link to="/inquiries">Open the inbox</Link> and
        read each inquiry marked “{NOT_NOTIFIED_LABEL}”.
      </p>
    </div>
  );
}
