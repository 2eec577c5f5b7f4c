/**
 * The forms' service that the pages' actions write through (PageContext's
 * `forms`) when a form is posted without JavaScript: the same schemas as the
 * API (shared/schemas.ts), then the same writes (each feature's writes.ts), so a form post
 * and an API call are one code path from validation to mail.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import type { InquiryValues } from "../../../shared/inquiry.ts";
import type { LeadSource } from "../../../shared/lead-source.ts";
import type { FormService, FormWrite } from "../../../shared/page-context.ts";
import { inquirySchema, subscribeQuerySchema } from "../../../shared/schemas.ts";
import {
  SUBSCRIBE_EMAIL_FIELD,
  SUBSCRIBE_TOPICS_FIELD,
  topicIdsOf,
} from "../../../shared/subscription.ts";
import type { Trap } from "../../platform/security/bot-defence.ts";
import { fieldReasons } from "../../platform/security/errors.ts";
import type { SiteContent } from "../content/index.ts";
import { type InquiryWriter, storeInquiry } from "../inquiries/index.ts";
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  type SubscriptionWriter,
  storeSubscription,
} from "../subscriptions/index.ts";
import { inquiryTypeRefusal } from "./inquiry-types.ts";

/**
 * Whether a trapped subscription is stored, to be confirmed by its e-mail's
 * link, instead of kept among the turned-away posts: one that only came too
 * soon after its page is likeliest a person whose browser filled the form
 * and who pressed Enter at once, and the link lets them in without waiting
 * for an editor (ADR 036). A filled honeypot is a script's.
 */
export const confirmsByMail = (trap: Trap | null): boolean => trap?.reason === "too-fast";

/** Why a page rendered for a GET cannot write (its actions never run). */
const NOT_A_POST = "Only a form post can write.";

export interface FormServiceOptions {
  /** The token every form carries (form-token.ts). */
  token: string;
  /** Why this post is refused, or null when it may write. */
  refusal: string | null;
  /**
   * The trap against scripts the post tripped (platform/security/bot-defence.ts),
   * or null: a valid trapped post is answered as if written, and kept among
   * the turned-away posts instead of stored or mailed, but for a subscription
   * that only came too fast (confirmsByMail).
   */
  trap?: Trap | null;
  /** The request's log, where a failed write is reported. */
  log: FastifyBaseLogger;
  /**
   * The source of the lead this post makes: without JavaScript, the page
   * that held the form (form-posts.ts), whose own referrer is not known.
   */
  source?: LeadSource | undefined;
  /** Told of each lead the post stored: the Audience area counts it for the sender's visit. */
  converted?: (goal: "inquiry" | "subscription") => void;
}

/** What a post without JavaScript can know of its visit's source (form-posts.ts). */
const FORM_POST_KNOWLEDGE = { referrerKnown: false } as const;

export function formService(
  app: InquiryWriter &
    SubscriptionWriter &
    Pick<FastifyInstance, "turnedAway"> & { content: Pick<SiteContent, "inquiryTypes"> },
  { token, refusal, trap = null, log, source, converted = () => {} }: FormServiceOptions,
): FormService {
  /** Runs a write unless the post is refused; a failure is logged here and rethrown to the action. */
  async function write<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (refusal) throw new Error(`refused form post wrote nothing: ${refusal}`);
    try {
      return await work();
    } catch (error) {
      log.error({ err: error }, `form post: ${what} failed`);
      throw error;
    }
  }

  return {
    token,
    refusal,
    source,
    sendInquiry: (values: InquiryValues) =>
      write("inquiry", async (): Promise<FormWrite<"sent">> => {
        // Every refused field at once: the fixed rules', and the type against the types on offer.
        const parsed = inquirySchema.safeParse(values);
        const fields = {
          ...(await inquiryTypeRefusal(app.content, values.inquiryType)),
          ...(parsed.success ? {} : fieldReasons(parsed.error.issues)),
        };
        if (!parsed.success || Object.keys(fields).length > 0)
          return { outcome: "invalid", fields };
        const inquiry = { ...parsed.data, source };
        if (trap) {
          await app.turnedAway.keep(
            { form: "inquiry", trap, via: CONSENT_VIA.form, fields: inquiry },
            log,
          );
          return { outcome: "sent" };
        }
        const id = await storeInquiry(app, inquiry, FORM_POST_KNOWLEDGE);
        converted("inquiry");
        log.info({ inquiry: id }, "inquiry received from a form post");
        return { outcome: "sent" };
      }),
    subscribe: (email: string, topics = "") =>
      write("subscription", async (): ReturnType<FormService["subscribe"]> => {
        const parsed = subscribeQuerySchema.safeParse({
          [SUBSCRIBE_EMAIL_FIELD]: email,
          [SUBSCRIBE_TOPICS_FIELD]: topics,
        });
        if (!parsed.success)
          return { outcome: "invalid", fields: fieldReasons(parsed.error.issues) };
        const mustConfirm = confirmsByMail(trap);
        if (trap && !mustConfirm) {
          await app.turnedAway.keep(
            {
              form: "subscription",
              trap,
              via: CONSENT_VIA.form,
              fields: { ...parsed.data, source },
            },
            log,
          );
          return {
            outcome: "subscribed",
            confirmationAsked: await app.newsletterSignup.doubleOptInNow(),
          };
        }
        const subscription = await storeSubscription(app, parsed.data.emailId, CONSENT_VIA.form, {
          mustConfirm,
          source,
          topics: topicIdsOf(parsed.data.topics ?? "") ?? [],
          ...FORM_POST_KNOWLEDGE,
        });
        if (subscription?.created) converted("subscription");
        return subscription
          ? { outcome: "subscribed", confirmationAsked: subscription.confirmationAsked }
          : { outcome: "already", message: ALREADY_SUBSCRIBED_MESSAGE };
      }),
  };
}

/** The service of a page rendered for a GET: the token for its forms, and no writes. */
export function pageFormService(token: string): FormService {
  const refuse = () => Promise.reject(new Error(NOT_A_POST));
  return { token, refusal: NOT_A_POST, sendInquiry: refuse, subscribe: refuse };
}
