/**
 * Composes each newsletter copy when the sender takes it: the campaign's
 * frozen issue, personalised with the recipient's own unsubscribe link, and
 * the list headers (RFC 2369, RFC 8058 one-click, RFC 2919 List-Id). It reads
 * the campaign's state and the subscription at that moment, so a pause, a
 * cancellation or an unsubscribe counts from the next copy on.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import type { ComposeNewsletter } from "../../platform/outbox/sender.ts";
import { findSubscription, unsubscribeHeaders, unsubscribeUrl } from "../subscriptions/index.ts";
import { campaignStatus, type FrozenCampaign, frozenCampaign } from "./campaign-sends.ts";
import { personalise } from "./render.ts";

export interface ComposerOptions {
  db: Kysely<Database>;
  from: string;
  publicOrigin: string;
  signingSecret: string;
}

/** RFC 2919: the list's name and a list identifier under the site's own domain. */
export function listId(publicOrigin: string): string {
  return `Insight <insight.${new URL(publicOrigin).hostname}>`;
}

export function newsletterComposer(options: ComposerOptions): ComposeNewsletter {
  const { db, from, publicOrigin, signingSecret } = options;
  // A campaign's issue never changes once its send was asked for.
  const issues = new Map<number, Promise<FrozenCampaign | undefined>>();
  const issueOf = (campaignId: number) => {
    let issue = issues.get(campaignId);
    if (!issue) {
      issue = frozenCampaign(db, campaignId);
      issues.set(campaignId, issue);
      issue.catch(() => issues.delete(campaignId));
    }
    return issue;
  };

  return async ({ newsletter, message }) => {
    const status = await campaignStatus(db, newsletter.campaignId);
    if (status === "paused") return { hold: true };
    if (status === undefined || status === "cancelled") return { drop: "campaign cancelled" };
    const [issue, subscription] = await Promise.all([
      issueOf(newsletter.campaignId),
      findSubscription(db, newsletter.subscriptionId),
    ]);
    if (!issue) return { drop: "campaign has no issue to send" };
    if (!subscription || subscription.unsubscribedAt) {
      return { drop: "address unsubscribed before its turn" };
    }
    const link = unsubscribeUrl(publicOrigin, signingSecret, subscription);
    const { html, text } = personalise(issue, link);
    return {
      send: {
        messageId: message.messageId,
        from,
        to: subscription.email,
        subject: issue.title,
        html,
        text,
        headers: { ...unsubscribeHeaders(link), "List-Id": listId(publicOrigin) },
      },
      spacingMs: 1000 / issue.rate,
    };
  };
}
