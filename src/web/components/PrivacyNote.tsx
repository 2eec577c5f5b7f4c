/**
 * The line under a form that says what its details are for and leads to the
 * privacy notice. The notice is the server's page (routes/privacy.tsx), so
 * the link loads it.
 */
import { Link } from "react-router";
import { PRIVACY_PATH } from "../../shared/routes.ts";

export function PrivacyNote({ children }: { children: string }) {
  return (
    <p className="privacy-note">
      {children}{" "}
      <Link reloadDocument to={PRIVACY_PATH}>
        Read our privacy notice
      </Link>
      .
    </p>
  );
}
