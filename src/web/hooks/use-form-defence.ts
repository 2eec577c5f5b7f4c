/**
 * The forms' defences against scripts in the browser (ADR 017): the CAPTCHA
 * widget the root loader hands every page when the server has one switched on
 * (root.tsx), and what a form sends against scripts beside its fields.
 */
import { useRouteLoaderData } from "react-router";
import { FORM_TRAP_FIELD } from "../../shared/bot-defence.ts";
import type { CaptchaWidget } from "../../shared/page-context.ts";
import type { FormDefence } from "../api/client.ts";

export function useCaptcha(): CaptchaWidget | null {
  const root = useRouteLoaderData("root") as { captcha?: CaptchaWidget | null } | undefined;
  return root?.captcha ?? null;
}

/** The honeypot's value (empty for a person) and the CAPTCHA widget's answer, read from the form. */
export function formDefenceOf(form: HTMLFormElement, captcha: CaptchaWidget | null): FormDefence {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? "");
  return { trap: value(FORM_TRAP_FIELD), captcha: captcha ? value(captcha.responseField) : "" };
}

interface CaptchaApi {
  reset(): void;
}

/** A widget's answer is good for one check: after a send, the widget asks again. */
export function resetCaptcha(): void {
  const scope = window as unknown as Record<string, CaptchaApi | undefined>;
  scope.turnstile?.reset();
  scope.hcaptcha?.reset();
}
