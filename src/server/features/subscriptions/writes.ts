/**
 * Subscribing, used by the API routes and by the forms posted without
 * JavaScript alike: each write commits its row and the e-mail it causes in
 * one transaction (withOutbox), so both ways store the same row and queue the
 * same mail. With double opt-in, confirming a subscription from its e-mail's
 * link is one of them too.
 */
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { ConsentVia } from "../../../shared/admin/subscribers.ts";
import type { LeadSource } from "../../../shared/lead-source.ts";
import { normalizeEmail } from "../../../shared/subscription.ts";
import { leadSourceColumns } from "../../platform/db/lead-source.ts";
import type { Database } from "../../platform/db/schema.ts";
import { isSuppressed, liftSuppression } from "../deliverability/index.ts";
import {
  subscriberConfirmed,
  subscriberCreated,
  subscriberUnsubscribed,
} from "../webhooks/index.ts";
import { confirmTokenMatches, readConfirmToken } from "./confirm-token.ts";
import {
  confirmSubscription,
  findPendingSubscription,
  findSubscription,
  type Subscription,
  subscribe,
  unsubscribe,
} from "./queries.ts";
import { chooseTopics } from "./topics.ts";

/** How new subscribers join the Insight list; features/subscriptions/confirm-routes.ts decorates the app with it. */
export interface NewsletterSignup {
  /**
   * Whether a new subscriber confirms the address by e-mail before the
   * welcome: the console's mail settings, else NEWSLETTER_DOUBLE_OPT_IN,
   * read in the subscription's own transaction.
   */
  doubleOptIn(db: Kysely<Database>): Promise<boolean>;
  /**
   * The same setting read on its own, for the answer to a post that stores
   * nothing (a turned-away one), which must read as a stored one would.
   */
  doubleOptInNow(): Promise<boolean>;
  /** NEWSLETTER_CONFIRM_HOURS: how long a confirmation link works and a subscription waits for it. */
  confirmHours: number;
  /** The server's secret, which signs the confirmation links (as the unsubscribe links). */
  secret: string;
}

declare module "fastify" {
  interface FastifyInstance {
    newsletterSignup: NewsletterSignup;
  }
}

/** What a write needs of the app: the outbox's transaction, this feature's mail, how subscribers join, and the webhooks. */
export type Writer = Pick<
  FastifyInstance,
  "withOutbox" | "subscriptionMail" | "newsletterSignup" | "webhookEvents"
>;

/** What ending a subscription needs of the app: the outbox's transaction and the webhooks. */
export type UnsubscribeWriter = Pick<FastifyInstance, "withOutbox" | "webhookEvents">;

export const SUBSCRIBED_MESSAGE = "Subscribed to Insight.";
export const CONFIRMATION_SENT_MESSAGE =
  "Check your inbox: the subscription to Insight starts when its link is followed.";
export const ALREADY_SUBSCRIBED_MESSAGE = "This e-mail address is already subscribed to Insight.";

const HOUR_MS = 60 * 60 * 1000;

/** The moment (ISO-8601) before which a subscription still waiting for its confirmation has lapsed. */
export function confirmationLapsedBefore(confirmHours: number): string {
  return new Date(Date.now() - confirmHours * HOUR_MS).toISOString();
}

/**
 * A subscription just asked for, and whether the visitor is to be told to
 * confirm it by its e-mail's link: when the site asks that of everyone
 * (double opt-in) or of this post (`mustConfirm`). An address the
 * suppression list holds is sent the link too, but its visitor is told what
 * any other would be, so the answer never tells whether an address bounced
 * or complained.
 */
export interface RequestedSubscription extends Subscription {
  confirmationAsked: boolean;
  /** Whether this request made the subscription, rather than asking again for one that waits. */
  created: boolean;
}

export interface SubscribeOptions {
  /**
   * The address must be confirmed by its e-mail's link whatever the
   * double opt-in setting: a post that came too soon after its page to be
   * surely a person's proves it that way (ADR 036).
   */
  mustConfirm?: boolean;
  /**
   * The visit that brought the subscription (shared/lead-source.ts): stored
   * on a new subscription and on one begun anew after its end; a request
   * while one waits for its confirmation leaves the first one's.
   */
  source?: LeadSource | undefined;
  /** Whether the visit's referrer could be known (not for a form posted without JavaScript). */
  referrerKnown?: boolean;
  /** The topics the visitor chose (ids): kept with a new subscription, not with a repeated ask. */
  topics?: readonly number[];
}

/**
 * Subscribes an address (already validated) from the website and queues the
 * welcome; null when it is subscribed already. `via` tells the consent
 * history which way the visitor came: the page's script or a form posted
 * without JavaScript. With double opt-in (or `mustConfirm`) the confirmation
 * link is queued instead, and an address that waits for its confirmation is
 * not "already subscribed" (it gets no issue yet): its link is sent again,
 * once the address's mail cooldown has passed (mail-cooldown.ts), and its
 * row stays as it is. The answer is the same whether mail was queued or not.
 */
export function storeSubscription(
  app: Writer,
  email: string,
  via: ConsentVia,
  { mustConfirm = false, source, referrerKnown, topics = [] }: SubscribeOptions = {},
): Promise<RequestedSubscription | null> {
  const address = normalizeEmail(email);
  const sourceColumns = leadSourceColumns(source, { referrerKnown });
  const { confirmHours } = app.newsletterSignup;
  return app.withOutbox(async (trx) => {
    const doubleOptIn = await app.newsletterSignup.doubleOptIn(trx);
    // An address a bounce or a complaint put on the suppression list gets
    // nothing until its owner shows they want it: the confirmation link is
    // the one message it can be sent, and following it lifts the suppression.
    const confirmationAsked = doubleOptIn || mustConfirm;
    if (!confirmationAsked && !(await isSuppressed(trx, address))) {
      const created = await subscribe(trx, address, via, undefined, sourceColumns);
      if (created) {
        await chooseTopics(trx, created.id, topics);
        await app.subscriptionMail.welcome(trx, created);
        await app.webhookEvents.announce(
          trx,
          subscriberCreated(app.webhookEvents.origin, created, true),
        );
      }
      return created && { ...created, confirmationAsked, created: true };
    }
    const lapsedBefore = confirmationLapsedBefore(confirmHours);
    const created = await subscribe(trx, address, via, { lapsedBefore }, sourceColumns);
    if (created) {
      await chooseTopics(trx, created.id, topics);
      await app.webhookEvents.announce(
        trx,
        subscriberCreated(app.webhookEvents.origin, created, false),
      );
    }
    const waiting = created ?? (await findPendingSubscription(trx, address));
    if (!waiting) return null;
    await app.subscriptionMail.confirmation(trx, waiting, confirmHours);
    return { ...waiting, confirmationAsked, created: created !== null };
  });
}

/** Where a confirmation link stands: its subscription waits or is confirmed, or the link is refused. */
export type ConfirmationLink =
  | { state: "pending"; subscription: Subscription }
  | { state: "confirmed"; subscription: Subscription }
  | { state: "invalid" }
  | { state: "expired" };

/**
 * Reads the subscription a confirmation link's token names. A link is
 * refused when its signature fails (forged, or from before the address
 * subscribed anew), when its subscription has ended, and as expired when its
 * subscription has waited too long. A link whose row is gone (purged) or no
 * longer matches can only be judged by the time it carries, unchecked: that
 * only picks the words of the refusal.
 */
export async function confirmationLink(
  db: Kysely<Database>,
  { secret, confirmHours }: NewsletterSignup,
  token: string,
): Promise<ConfirmationLink> {
  const claim = readConfirmToken(token);
  if (!claim) return { state: "invalid" };
  const lapsedBefore = Date.parse(confirmationLapsedBefore(confirmHours));
  const subscription = await findSubscription(db, claim.id);
  if (
    !subscription ||
    subscription.unsubscribedAt !== null ||
    !confirmTokenMatches(secret, token, subscription)
  ) {
    return { state: claim.askedAt < lapsedBefore ? "expired" : "invalid" };
  }
  if (subscription.confirmedAt !== null) return { state: "confirmed", subscription };
  return Date.parse(subscription.subscribedAt) < lapsedBefore
    ? { state: "expired" }
    : { state: "pending", subscription };
}

/**
 * Confirms the subscription of a confirmation link and queues its welcome,
 * in one transaction: of simultaneous confirmations only the one whose
 * update changed the row queues it; the others read the link again.
 */
export function confirmByLink(
  app: Writer,
  token: string,
): Promise<Exclude<ConfirmationLink, { state: "pending" }>> {
  return app.withOutbox(async (trx) => {
    const link = await confirmationLink(trx, app.newsletterSignup, token);
    if (link.state !== "pending") return link;
    if (await confirmSubscription(trx, link.subscription)) {
      await liftSuppression(trx, link.subscription.email);
      await app.subscriptionMail.welcome(trx, link.subscription);
      await app.webhookEvents.announce(
        trx,
        subscriberConfirmed(app.webhookEvents.origin, link.subscription),
      );
      return { state: "confirmed", subscription: link.subscription };
    }
    // Confirmed by a simultaneous request, or ended meanwhile: the link as it stands now.
    const now = await confirmationLink(trx, app.newsletterSignup, token);
    return now.state === "pending" ? { state: "invalid" } : now;
  });
}

/**
 * Ends a subscription, by its link, a mail program's one-click or the
 * console (inside its write), and tells the firm's tools, in one
 * transaction; false when it had already ended, and then nothing is told.
 */
export function endSubscription(
  app: UnsubscribeWriter,
  id: number,
  via: ConsentVia,
): Promise<boolean> {
  return app.withOutbox(async (trx) => {
    if (!(await unsubscribe(trx, id, via))) return false;
    const subscription = await findSubscription(trx, id);
    if (subscription) {
      await app.webhookEvents.announce(
        trx,
        subscriberUnsubscribed(app.webhookEvents.origin, subscription, via),
      );
    }
    return true;
  });
}
