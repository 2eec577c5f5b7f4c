/**
 * The forms' defences against scripted posts (ADR 017), for the API's writes
 * and the forms posted without JavaScript alike. A post is TRAPPED when its
 * honeypot is filled or its XSRF token (which carries its signed issue time,
 * xsrf.ts) is younger than FORM_MIN_SECONDS: the sender then gets the normal
 * success answer, and the trip is logged and counted per day
 * (platform/security/bot-trips.ts). What becomes of the post is the route's
 * to say: it keeps it for the console to release or delete
 * (features/turned-away), or, for a subscription that only came too fast,
 * asks the address to confirm by e-mail. When CAPTCHA_PROVIDER is set, every
 * other post must also bring a widget answer its service accepts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import {
  CAPTCHA_FIELD,
  CAPTCHA_HEADER,
  type DefendedForm,
  FORM_TRAP_HEADER,
  type TrapReason,
} from "../../../shared/bot-defence.ts";
import type { CaptchaWidget } from "../../../shared/page-context.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { PlatformConfig } from "../server-settings.ts";
import { countTrip } from "./bot-trips.ts";
import {
  type CaptchaConfig,
  type CaptchaSettings,
  type CaptchaVerdict,
  captchaSettings,
  verifyCaptcha,
} from "./captcha.ts";

/** What a refused CAPTCHA answer gets: a status, and words for the visitor (who can try again). */
export const CAPTCHA_REFUSALS: Record<
  Exclude<CaptchaVerdict, "passed">,
  { status: number; message: string }
> = {
  missing: {
    status: 400,
    message: "Please complete the check that you are a person, then send the form again.",
  },
  failed: {
    status: 403,
    message:
      "The check that you are a person did not succeed. Please do it again, then send the form again.",
  },
  unreachable: {
    status: 503,
    message:
      "We could not confirm the check that you are a person just now. Please send the form again in a minute.",
  },
};

/** What a post brings against the traps: the honeypot's value and the CAPTCHA widget's answer. */
export interface PostDefences {
  trap: string | undefined;
  captcha: string | undefined;
}

/** Why a post was trapped, and how many seconds after its token it came. */
export interface Trap {
  reason: TrapReason;
  seconds: number;
}

export type Screening =
  | { outcome: "pass" }
  | ({ outcome: "trapped" } & Trap)
  | { outcome: "refused"; status: number; message: string };

/** Why a post looks scripted, or null: a filled honeypot, or a token younger than the minimum. */
export function trapOf(
  trap: string | undefined,
  tokenIssuedAt: number,
  minSeconds: number,
  now = Date.now(),
): TrapReason | null {
  if (trap) return "honeypot";
  return now - tokenIssuedAt < minSeconds * 1000 ? "too-fast" : null;
}

/** The defences of an API call, which come in headers (the public calls' payloads stay as they are). */
export function headerDefences(request: FastifyRequest): PostDefences {
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()];
    return typeof value === "string" ? value : undefined;
  };
  return { trap: header(FORM_TRAP_HEADER), captcha: header(CAPTCHA_HEADER) };
}

/** A CAPTCHA refusal's answer body: the reason, also as the widget's field reason. */
export const captchaRefusalBody = (message: string) => ({
  message,
  fields: { [CAPTCHA_FIELD]: message },
});

declare module "fastify" {
  interface FastifyInstance {
    botDefence: {
      /** The CAPTCHA the server checks, or null when it is off. */
      captcha: CaptchaSettings | null;
      /** What the pages need to show its widget, or null when it is off. */
      widget: CaptchaWidget | null;
      /** Screens a write of `form` before it is stored; logs and counts a trapped one. */
      screen(request: FastifyRequest, form: DefendedForm, given: PostDefences): Promise<Screening>;
    };
  }
}

export interface BotDefenceOptions {
  config: CaptchaConfig & Pick<PlatformConfig, "FORM_MIN_SECONDS">;
  database: DatabaseHandle;
  /** The clock a token's age is read against (epoch ms); tests pass their own. */
  now?: () => number;
}

export default fp(
  async function botDefence(
    app: FastifyInstance,
    { config, database, now = Date.now }: BotDefenceOptions,
  ) {
    const captcha = captchaSettings(config);

    async function screen(
      request: FastifyRequest,
      form: DefendedForm,
      given: PostDefences,
    ): Promise<Screening> {
      const at = now();
      const reason = trapOf(given.trap, request.xsrfIssuedAt, config.FORM_MIN_SECONDS, at);
      if (reason) {
        request.log.info({ form, reason }, "post trapped as automated");
        // A count that fails to be written must not tell the sender anything.
        await countTrip(database.db, form, reason).catch((error: unknown) =>
          request.log.error({ err: error }, "could not count a trapped post"),
        );
        return { outcome: "trapped", reason, seconds: (at - request.xsrfIssuedAt) / 1000 };
      }
      if (captcha) {
        const verdict = await verifyCaptcha(captcha, given.captcha, request.ip, request.log);
        if (verdict !== "passed") {
          request.log.info({ form, verdict }, "post refused: CAPTCHA not passed");
          return { outcome: "refused", ...CAPTCHA_REFUSALS[verdict] };
        }
      }
      return { outcome: "pass" };
    }

    const widget: CaptchaWidget | null = captcha && {
      scriptUrl: captcha.service.scriptUrl,
      widgetClass: captcha.service.widgetClass,
      responseField: captcha.service.responseField,
      siteKey: captcha.siteKey,
    };
    app.decorate("botDefence", { captcha, widget, screen });
  },
  { name: "bot-defence", dependencies: ["xsrf"] },
);
