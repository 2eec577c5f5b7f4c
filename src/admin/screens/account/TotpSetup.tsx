/**
 * Setting up the authenticator app: a QR code to scan, or for those who
 * cannot scan, the key to type in (in groups of four, as apps show it) or a
 * link that opens the app; then a code from the app to prove the key
 * arrived. Confirming shows the recovery codes, this once.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type TotpSetup as Setup,
  type TotpConfirm,
  totpConfirmSchema,
} from "../../../shared/admin/account.ts";
import type { Me } from "../../../shared/admin/auth.ts";
import { api } from "../../api/client.ts";
import { failureText, showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

/** "JBSWY3DPEHPK3PXP" reads "JBSW Y3DP EHPK 3PXP". */
const inFours = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * The server's SVG as an image: the console's policy allows data: images,
 * and markup shown as an image runs no script, unlike markup put in the page.
 */
const svgImage = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;

/** The QR code's side in CSS pixels: large enough for a phone camera to read from a screen. */
const QR_SIZE = 200;

interface TotpSetupProps {
  onEnabled: (me: Me, recoveryCodes: string[]) => void;
}

export function TotpSetup({ onEnabled }: TotpSetupProps) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  async function start() {
    setStarting(true);
    setFailure(null);
    try {
      setSetup(await api.call("account.startSecondFactor"));
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setStarting(false);
    }
  }

  if (!setup) {
    return (
      <div className="totp-start">
        <p>
          With a second factor, signing in needs a 6-digit code from an authenticator app on your
          phone (such as 1Password, Google Authenticator or Microsoft Authenticator) as well as your
          password.
        </p>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <div>
          <button
            type="button"
            className="button button-primary"
            onClick={start}
            disabled={starting}
          >
            Set up an authenticator app
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="totp-setup">
      <ol className="totp-steps">
        <li>
          <p>In your authenticator app, add an account and scan this QR code.</p>
          <img
            className="totp-qr"
            src={svgImage(setup.qrSvg)}
            alt="QR code for your authenticator app"
            width={QR_SIZE}
            height={QR_SIZE}
          />
          <p>
            If you cannot scan it, type in this key instead, or on this phone{" "}
            <a href={setup.uri}>open it in your authenticator app</a>.
          </p>
          <p className="totp-key">
            <span className="totp-key-label">Key</span>
            <code className="totp-secret">{inFours(setup.secret)}</code>
          </p>
        </li>
        <li>
          <p>Enter the 6-digit code the app now shows for this account.</p>
          <ConfirmForm onEnabled={onEnabled} />
        </li>
      </ol>
    </div>
  );
}

function ConfirmForm({ onEnabled }: TotpSetupProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpConfirm>({
    resolver: zodResolver(totpConfirmSchema),
    defaultValues: { code: "" },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { me, recoveryCodes } = await api.call("account.confirmSecondFactor", {
        body: values,
      });
      onEnabled(me, recoveryCodes);
    } catch (error) {
      setFailure(showRefusal(error, setError, ["code"]));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="totp-confirm">
      <Field
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code?.message}
        {...register("code")}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div>
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          Turn on the second factor
        </button>
      </div>
    </form>
  );
}
