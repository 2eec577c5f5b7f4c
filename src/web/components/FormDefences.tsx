/**
 * What both forms carry against scripts (ADR 017): a honeypot field people
 * never see or reach (hidden by class, out of the tab order and of the
 * accessibility tree, its label asking anyone who reaches it to leave it
 * empty), and the CAPTCHA widget when the server has one switched on, with
 * the server's reason next to it when it refused the widget's answer.
 */
import { useEffect } from "react";
import { CAPTCHA_FIELD, FORM_TRAP_FIELD, FORM_TRAP_LABEL } from "../../shared/bot-defence.ts";
import type { FieldReasons } from "../../shared/field-rules.ts";
import { xsrfToken } from "../api/client.ts";
import { useCaptcha } from "../hooks/use-form-defence.ts";

export function FormDefences({ idPrefix, errors }: { idPrefix: string; errors: FieldReasons }) {
  const captcha = useCaptcha();
  // A page that came without the token cookie takes one now, so its issue
  // time is when the form was shown, not when it is sent. A failure here is
  // tried again when the form is sent.
  useEffect(() => {
    xsrfToken().catch(() => {});
  }, []);
  const trapId = `${idPrefix}-${FORM_TRAP_FIELD}`;
  const reason = errors[CAPTCHA_FIELD];
  return (
    <>
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor={trapId}>{FORM_TRAP_LABEL}</label>
        <input id={trapId} name={FORM_TRAP_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {captcha ? (
        <div className="form-captcha">
          <div className={captcha.widgetClass} data-sitekey={captcha.siteKey} />
          {reason ? (
            <p className="field-error" role="alert">
              {reason}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
