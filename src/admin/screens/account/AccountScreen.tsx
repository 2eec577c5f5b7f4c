/**
 * Your account (every role): the second factor, the password and the places
 * you are signed in. While the owner requires a second factor and this
 * account has none, setting it up is all the console allows.
 */
import { AUTH_TEXTS } from "../../../shared/admin/auth.ts";
import { ROLE_LABELS } from "../../../shared/admin/roles.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { Notice } from "../../components/Notice.tsx";
import { PasswordSection } from "./PasswordSection.tsx";
import { SecondFactorSection } from "./SecondFactorSection.tsx";
import { SessionsSection } from "./SessionsSection.tsx";
import "../people/shared.css";
import "./account.css";

export default function AccountScreen() {
  const me = useMe();
  const account = useResource(read("account.read"));

  return (
    <div className="account">
      <div className="screen-head">
        <h1>Your account</h1>
        <p className="screen-lead">
          {me.name ? `${me.name}, ` : ""}
          {me.email}. {ROLE_LABELS[me.role]}.
        </p>
      </div>
      {me.mustEnrolSecondFactor ? (
        <Notice tone="error">{AUTH_TEXTS.secondFactorFirst}</Notice>
      ) : null}
      {account.error ? <Notice tone="error">{account.error}</Notice> : null}
      {account.data ? (
        <div className="account-sections">
          <SecondFactorSection account={account.data} onChanged={account.reload} />
          {me.mustEnrolSecondFactor ? null : (
            <PasswordSection email={me.email} onChanged={account.reload} />
          )}
          <SessionsSection sessions={account.data.sessions} />
        </div>
      ) : account.loading ? (
        <p role="status">Loading…</p>
      ) : null}
    </div>
  );
}
