/**
 * The CAPTCHA services the forms can use when CAPTCHA_PROVIDER is set: where
 * each one's widget script lives, the element and form field it fills, where
 * the server verifies the answer, and the origins the Content-Security-Policy
 * must allow for the widget. Off by default: the site loads nothing from them.
 */

export type CaptchaProvider = "turnstile" | "hcaptcha";

export interface CaptchaService {
  /** The widget's script, loaded only on pages with a form while the setting is on. */
  scriptUrl: string;
  /** The class of the element the script turns into a widget (with data-sitekey). */
  widgetClass: string;
  /** The form field the widget fills with its answer. */
  responseField: string;
  /** Where the server checks an answer (POST, form-encoded: secret, response, remoteip). */
  verifyUrl: string;
  /** Origins the page must allow for the widget's script, frame, style and calls. */
  origins: readonly string[];
}

export const CAPTCHA_SERVICES: Record<CaptchaProvider, CaptchaService> = {
  turnstile: {
    scriptUrl: "https://challenges.cloudflare.com/turnstile/v0/api.js",
    widgetClass: "cf-turnstile",
    responseField: "cf-turnstile-response",
    verifyUrl: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    origins: ["https://challenges.cloudflare.com"],
  },
  hcaptcha: {
    scriptUrl: "https://js.hcaptcha.com/1/api.js",
    widgetClass: "h-captcha",
    responseField: "h-captcha-response",
    verifyUrl: "https://api.hcaptcha.com/siteverify",
    origins: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
  },
};
