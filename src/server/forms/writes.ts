/**
 * The two writes a visitor can cause, used by the API routes (spec §7) and by
 * the forms posted without JavaScript alike: each commits its row and the
 * e-mail it causes in one transaction (withOutbox), so both ways store the
 * same row and queue the same mail.
 */
import type { FastifyInstance } from "fastify";
import type { ConsentVia } from "../../shared/admin/subscribers.ts";
import type { Inquiry } from "../../shared/inquiry.ts";
import { normalizeEmail } from "../../shared/subscription.ts";
import { insertInquiry } from "../db/inquiries.ts";
import { type Subscription, subscribe } from "../db/subscriptions.ts";

/** What a write needs of the app: the mail queue and its transaction (mail/plugin.ts). */
type Writer = Pick<FastifyInstance, "withOutbox" | "mail">;

export const SUBSCRIBED_MESSAGE = "Subscribed to Insight.";
export const ALREADY_SUBSCRIBED_MESSAGE = "This e-mail address is already subscribed to Insight.";

/** Stores an inquiry (already validated) and queues its notification; its id. */
export function storeInquiry(app: Writer, inquiry: Inquiry): Promise<number> {
  return app.withOutbox(async (trx) => {
    const id = await insertInquiry(trx, inquiry);
    await app.mail.inquiry(trx, inquiry);
    return id;
  });
}

/**
 * Subscribes an address (already validated) from the website and queues the
 * welcome; null when it is subscribed already. `via` tells the consent
 * history which way the visitor came: the page's script or a form posted
 * without JavaScript.
 */
export function storeSubscription(
  app: Writer,
  email: string,
  via: ConsentVia,
): Promise<Subscription | null> {
  return app.withOutbox(async (trx) => {
    const created = await subscribe(trx, normalizeEmail(email), via);
    if (created) await app.mail.welcome(trx, created);
    return created;
  });
}
