/**
 * Checks a CAPTCHA widget's answer with its service (Cloudflare Turnstile or
 * hCaptcha, shared/captcha.ts) when CAPTCHA_PROVIDER is set: one form-encoded
 * POST of the secret, the answer and the visitor's address, with a short
 * time-out. Both services answer `{"success": true|false, …}`.
 */
import type { FastifyBaseLogger } from "fastify";
import { CAPTCHA_SERVICES, type CaptchaService } from "../../../shared/captcha.ts";
import type { PlatformConfig } from "../server-settings.ts";

/** Long enough for a service that answers in tens of milliseconds; a visitor waits on it. */
export const CAPTCHA_VERIFY_TIMEOUT_MS = 5000;

export interface CaptchaSettings {
  service: CaptchaService;
  siteKey: string;
  secret: string;
  verifyUrl: string;
}

export type CaptchaConfig = Pick<
  PlatformConfig,
  "CAPTCHA_PROVIDER" | "CAPTCHA_SITE_KEY" | "CAPTCHA_SECRET" | "CAPTCHA_VERIFY_URL"
>;

/** The settings when CAPTCHA_PROVIDER is set, else null (the forms show no widget). */
export function captchaSettings(config: CaptchaConfig): CaptchaSettings | null {
  const { CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY, CAPTCHA_SECRET, CAPTCHA_VERIFY_URL } = config;
  // Its settings slice refuses a provider without its key and secret.
  if (!CAPTCHA_PROVIDER || !CAPTCHA_SITE_KEY || !CAPTCHA_SECRET) return null;
  const service = CAPTCHA_SERVICES[CAPTCHA_PROVIDER];
  return {
    service,
    siteKey: CAPTCHA_SITE_KEY,
    secret: CAPTCHA_SECRET,
    verifyUrl: CAPTCHA_VERIFY_URL ?? service.verifyUrl,
  };
}

/** passed; missing (no answer sent); failed (the service said no); unreachable (no usable answer from it). */
export type CaptchaVerdict = "passed" | "missing" | "failed" | "unreachable";

export async function verifyCaptcha(
  settings: CaptchaSettings,
  answer: string | undefined,
  remoteIp: string,
  log: FastifyBaseLogger,
): Promise<CaptchaVerdict> {
  if (!answer) return "missing";
  try {
    const response = await fetch(settings.verifyUrl, {
      method: "POST",
      body: new URLSearchParams({ secret: settings.secret, response: answer, remoteip: remoteIp }),
      signal: AbortSignal.timeout(CAPTCHA_VERIFY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the verifier answered ${response.status}`);
    const verdict = (await response.json()) as { success?: unknown };
    return verdict.success === true ? "passed" : "failed";
  } catch (error) {
    log.warn({ err: error, verifyUrl: settings.verifyUrl }, "CAPTCHA verifier unreachable");
    return "unreachable";
  }
}
