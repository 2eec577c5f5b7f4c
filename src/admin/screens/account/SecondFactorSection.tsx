/**
 * The account's second factor: set it up, see how many recovery codes are
 * left, or turn it off (not while the owner requires it).
 */
import { type ReactNode, useState } from "react";
import { type Account, RECOVERY_CODE_COUNT } from "../../../shared/admin/account.ts";
import type { Me } from "../../../shared/admin/auth.ts";
import { useSession } from "../../auth/session.tsx";
import { Notice } from "../../components/Notice.tsx";
import { RecoveryCodes } from "./RecoveryCodes.tsx";
import { TotpSetup } from "./TotpSetup.tsx";
import { TurnOffForm } from "./TurnOffForm.tsx";

interface SecondFactorSectionProps {
  account: Account;
  onChanged: () => void;
}

export function SecondFactorSection({ account, onChanged }: SecondFactorSectionProps) {
  const { signedIn } = useSession();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  function changed(me: Me, message: string) {
    signedIn(me);
    setOutcome(message);
    onChanged();
  }

  let body: ReactNode;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (account.secondFactor) {
    body = (
      <>
        <p>
          Signing in asks for a code from your authenticator app. {account.recoveryCodesLeft} of{" "}
          {RECOVERY_CODE_COUNT} recovery codes are left.
        </p>
        {account.secondFactorRequired ? (
          <p className="field-hint">
            The owner requires a second factor for every account, so it stays on.
          </p>
        ) : (
          <TurnOffForm
            onTurnedOff={(me) =>
              changed(me, "The second factor is off. Sign-in asks only for your password.")
            }
          />
        )}
      </>
    );
  } else {
    body = (
      <TotpSetup
        onEnabled={(me, codes) => {
          setRecoveryCodes(codes);
          changed(me, "The second factor is on. From now on, signing in asks for a code.");
        }}
      />
    );
  }

  return (
    <section className="panel account-section" aria-labelledby="second-factor-title">
      <div className="account-section-head">
        <h2 id="second-factor-title">Second factor</h2>
        {account.secondFactor ? (
          <span className="badge badge-secure">On</span>
        ) : (
          <span className="badge badge-plain">Off</span>
        )}
      </div>
      {outcome ? <Notice tone="success">{outcome}</Notice> : null}
      {body}
    </section>
  );
}
