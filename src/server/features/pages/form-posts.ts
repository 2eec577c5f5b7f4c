/**
 * The forms posted without JavaScript (issue: both forms work without it):
 * the inquiry form posts to /contact-us, the subscribe form to /subscribe,
 * as application/x-www-form-urlencoded. Each post is checked (where it came
 * from, the cookie, the signed token in its hidden field; ADR 004), then the
 * page's route renders the answer: its action validates with the API's
 * schemas and writes through the API's code (service.ts), and the page shows
 * the outcome with the dialogs' texts (DIALOG). A refused post, too many posts or a
 * body too large still get the page, with the reason and the values kept.
 * The page of a confirmation link (double opt-in) posts its button here too.
 * Nothing here is cached: each answer is rendered for its post.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type DefendedForm, FORM_TRAP_FIELD } from "../../../shared/bot-defence.ts";
import { INQUIRY_FIELDS } from "../../../shared/inquiry.ts";
import { cleanLeadSource, type LeadSource, sourceOfFormPage } from "../../../shared/lead-source.ts";
import {
  FORM_SOURCE_FIELD,
  FORM_TOKEN_FIELD,
  type PageContext,
} from "../../../shared/page-context.ts";
import { CONFIRM_SUBSCRIPTION_PATH } from "../../../shared/routes.ts";
import type { ConfirmationAnswer } from "../../../shared/schemas.ts";
import type { PostDefences, Trap } from "../../platform/security/bot-defence.ts";
import { FORM_REFUSALS, formPostRefusal } from "../../platform/security/xsrf.ts";
import { confirmByLink, maskEmail } from "../subscriptions/index.ts";
import { formService } from "./form-service.ts";
import { formTokenMatches } from "./form-token.ts";
import { policyForPage } from "./page-cache.ts";
import { FORM_CONTENT_TYPE, type PageRenderer } from "./renderer.ts";

/**
 * The largest body a form can honestly send: every field at its longest,
 * each character percent-encoded from three bytes of UTF-8 (9 bytes), and
 * room for the names and the token, about 53 KB. A smaller limit would refuse
 * a long inquiry written in, say, Japanese.
 */
export const FORM_BODY_LIMIT =
  Object.values(INQUIRY_FIELDS).reduce((sum, rule) => sum + rule.maxLength * 9, 0) + 1024;

/** A page that answers one post is never stored or reused. */
export const FORM_CACHE_CONTROL = "no-store";

export const UNREADABLE_FORM_MESSAGE =
  "We could not read this form. Please check your entries and send it again.";

/**
 * The lead source of a form posted without JavaScript. The pages are cached
 * alike for every visitor (page-cache.ts), so they cannot carry a visitor's
 * source in hidden fields; the post's own Referer names the page that held
 * the form, with its query: that page is the entry page, and its UTM tags are
 * the visit's. Browsers send a same-origin page's full address by default
 * (Referrer-Policy strict-origin-when-cross-origin); a Referer of another
 * site, or none, gives no source.
 */
export function sourceOfFormPost(
  request: Pick<FastifyRequest, "headers" | "protocol" | "host">,
  origin: string,
  body = "",
): LeadSource | undefined {
  const carried = carriedSource(body);
  if (carried) return carried;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  let page: URL;
  try {
    page = new URL(referer);
  } catch {
    return undefined;
  }
  const own = [new URL(origin).origin, `${request.protocol}://${request.host}`];
  return own.includes(page.origin) ? sourceOfFormPage(page) : undefined;
}

/**
 * The source a form on an answer page carries (FORM_SOURCE_FIELD): a post
 * refused once and sent again comes from that page, whose address has lost
 * the first page's query, so the first post's source travels in the form.
 */
function carriedSource(body: string): LeadSource | undefined {
  const given = new URLSearchParams(body).get(FORM_SOURCE_FIELD);
  if (!given) return undefined;
  try {
    return cleanLeadSource(JSON.parse(given));
  } catch {
    return undefined;
  }
}

export interface FormPostsOptions {
  /** The pages forms post to (each route has an action), and the form each one takes. */
  paths: Readonly<Record<string, DefendedForm>>;
  submit: NonNullable<PageRenderer["submit"]>;
  /** PUBLIC_ORIGIN: pages are rendered at it, and a post's Origin may be it. */
  origin: string;
  /** The token in every form's hidden field (form-token.ts). */
  token: string;
}

/** Registered inside the pages plugin, in a scope of its own: its body parser and error handler stay here. */
export default async function formPosts(
  app: FastifyInstance,
  { paths, submit, origin, token }: FormPostsOptions,
) {
  app.addContentTypeParser(
    FORM_CONTENT_TYPE,
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  /** Renders the route's answer to the post (its action sees `refusal` and `trap`) and sends it. */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    body: string,
    refusal: string | null,
    { status, trap = null }: { status?: number; trap?: Trap | null } = {},
  ) {
    const context: PageContext = {
      content: app.content,
      origin,
      captcha: app.botDefence.widget,
      forms: formService(app, {
        token,
        refusal,
        trap,
        log: request.log,
        source: sourceOfFormPost(request, origin, body),
        converted: (goal) => app.audience.convert(request, goal),
      }),
    };
    const path = request.routeOptions.url ?? request.url;
    const page = await submit({ path, body }, context);
    return reply
      .code(status ?? page.status)
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", FORM_CACHE_CONTROL)
      .header("content-security-policy", policyForPage(page.html, app.pagePolicy))
      .send(page.html);
  }

  // Too many posts (429), a body too large (413) or of another type (415):
  // the visitor still gets the page, with the reason.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 400 || status >= 500) throw error;
    request.log.info({ err: error }, "form post refused");
    const reason = status === 413 || status === 415 ? UNREADABLE_FORM_MESSAGE : error.message;
    return answer(request, reply, "", reason, { status });
  });

  /** The honeypot and the CAPTCHA widget's answer, as the form's fields. */
  function fieldDefences(fields: URLSearchParams): PostDefences {
    const captchaField = app.botDefence.captcha?.service.responseField;
    return {
      trap: fields.get(FORM_TRAP_FIELD) ?? undefined,
      captcha: (captchaField && fields.get(captchaField)) || undefined,
    };
  }

  /** Confirms a subscription from its link (double opt-in), in the words its page shows. */
  async function confirmationAnswer(
    token: string,
    log: FastifyBaseLogger,
  ): Promise<ConfirmationAnswer> {
    try {
      const link = await confirmByLink(app, token);
      return link.state === "confirmed"
        ? { state: "confirmed", email: maskEmail(link.subscription.email) }
        : { state: link.state };
    } catch (error) {
      log.error({ err: error }, "form post: confirming a subscription failed");
      return { state: "failed" };
    }
  }

  // The button of a confirmation link's page, with or without JavaScript: a
  // plain form posting to the page's own address, so the link's token comes
  // in the query. The token proves the post, as the one-click unsubscribe's
  // does: no cookie or form token is asked for. The outcome reaches the
  // page's action as the form's fields, so the page shows it in the site's frame.
  app.post(CONFIRM_SUBSCRIPTION_PATH, { config: { xsrf: false } }, async (request, reply) => {
    const { token } = request.query as { token?: unknown };
    const outcome = await confirmationAnswer(typeof token === "string" ? token : "", request.log);
    return answer(request, reply, new URLSearchParams(outcome).toString(), null);
  });

  for (const [path, form] of Object.entries(paths)) {
    app.post(
      path,
      // The X-XSRF-TOKEN header cannot come with a form: formPostRefusal and the token stand in.
      { config: { xsrf: false } },
      async (request, reply) => {
        if (typeof request.body !== "string") {
          throw app.httpErrors.unsupportedMediaType(UNREADABLE_FORM_MESSAGE);
        }
        const body = request.body;
        const fields = new URLSearchParams(body);
        const refusal =
          formPostRefusal(request, origin) ??
          (formTokenMatches(token, fields.get(FORM_TOKEN_FIELD)) ? null : FORM_REFUSALS.staleForm);
        if (refusal) {
          request.log.info({ refusal }, "form post refused");
          return answer(request, reply, body, refusal);
        }
        const screening = await app.botDefence.screen(request, form, fieldDefences(fields));
        if (screening.outcome === "refused") {
          return answer(request, reply, body, screening.message, { status: screening.status });
        }
        return answer(request, reply, body, null, {
          trap: screening.outcome === "trapped" ? screening : null,
        });
      },
    );
  }
}
