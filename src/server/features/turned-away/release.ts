/**
 * Releasing a turned-away post: it is stored, and its mail queued, exactly
 * as if it had just arrived, by the writes the API and the forms use, inside
 * the caller's transaction (which also deletes the kept post and audits).
 */

import type { ConsentVia } from "../../../shared/admin/subscribers.ts";
import { TURNED_AWAY_TEXTS, type TurnedAwayPost } from "../../../shared/admin/turned-away.ts";
import { inquirySchema, subscribeQuerySchema } from "../../../shared/schemas.ts";
import { topicIdsOf } from "../../../shared/subscription.ts";
import { joinedOutbox, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { type InquiryWriter, storeInquiry } from "../inquiries/index.ts";
import { type SubscriptionWriter, storeSubscription } from "../subscriptions/index.ts";

export type Releaser = InquiryWriter & SubscriptionWriter;

/** Stores the post in `trx`; the words that tell the editor what came of it. */
export async function releasePost(
  app: Releaser,
  trx: OutboxTransaction,
  post: TurnedAwayPost,
): Promise<string> {
  // The writes open their transaction through withOutbox: this one joins the caller's.
  const withOutbox = joinedOutbox(trx);
  if (post.form === "inquiry") {
    await storeInquiry(
      { inquiryMail: app.inquiryMail, webhookEvents: app.webhookEvents, withOutbox },
      inquirySchema.parse({ ...post.fields, source: post.source }),
    );
    return TURNED_AWAY_TEXTS.releasedInquiry;
  }
  const { emailId, topics } = subscribeQuerySchema.parse(post.fields);
  const subscribed = await storeSubscription(
    {
      subscriptionMail: app.subscriptionMail,
      newsletterSignup: app.newsletterSignup,
      webhookEvents: app.webhookEvents,
      withOutbox,
    },
    emailId,
    post.via as ConsentVia,
    { source: post.source, topics: topicIdsOf(topics ?? "") ?? [] },
  );
  return subscribed ? TURNED_AWAY_TEXTS.releasedSubscription : TURNED_AWAY_TEXTS.alreadySubscribed;
}
