/**
 * Composes each newsletter copy when the sender takes it: the issue's
 * frozen issue, personalised with the recipient's own unsubscribe link and
 * their values of its merge fields (the Subject's too), and
 * the list headers (RFC 2369, RFC 8058 one-click, RFC 2919 List-Id) and the
 * send's Feedback-ID. It reads the issue's state, the subscription and the
 * suppression list at that moment, so a pause, a cancellation, an
 * unsubscribe or a bounce counts from the next copy on.
 */
import type { Kysely } from "kysely";
import { fillMergeFields } from "../../../shared/merge-fields.ts";
import type { Database } from "../../platform/db/schema.ts";
import type { ComposeNewsletter } from "../../platform/outbox/sender.ts";
import { isSuppressed } from "../deliverability/index.ts";
import {
  findSubscription,
  listId,
  unsubscribeHeaders,
  unsubscribeUrl,
} from "../subscriptions/index.ts";
import { type FrozenIssue, frozenIssue, issueStatus } from "./issue-sends.ts";
import { personalise } from "./render.ts";

export interface ComposerOptions {
  db: Kysely<Database>;
  /** The From in force, read for each copy: a change reaches the very next one. */
  from: (db: Kysely<Database>) => Promise<string>;
  publicOrigin: string;
  signingSecret: string;
}

/**
 * Names the send in the form mailbox providers' feedback loops group
 * complaints by (campaign:customer:type:sender, Gmail's): the issue, the
 * list, the kind of mail and the site.
 */
export function feedbackId(publicOrigin: string, issueId: number): string {
  return `issue-${issueId}:insight:newsletter:${new URL(publicOrigin).hostname}`;
}

export function newsletterComposer(options: ComposerOptions): ComposeNewsletter {
  const { db, from, publicOrigin, signingSecret } = options;
  // An issue's rendering never changes once its send was asked for.
  const frozen = new Map<number, Promise<FrozenIssue | undefined>>();
  const frozenOf = (issueId: number) => {
    let found = frozen.get(issueId);
    if (!found) {
      found = frozenIssue(db, issueId);
      frozen.set(issueId, found);
      found.catch(() => frozen.delete(issueId));
    }
    return found;
  };

  return async ({ newsletter, message }) => {
    const status = await issueStatus(db, newsletter.issueId);
    if (status === "paused") return { hold: true };
    if (status === undefined || status === "cancelled") return { drop: "issue cancelled" };
    const [rendering, subscription, sender] = await Promise.all([
      frozenOf(newsletter.issueId),
      findSubscription(db, newsletter.subscriptionId),
      from(db),
    ]);
    if (!rendering) return { drop: "issue was never frozen for sending" };
    if (!subscription || subscription.unsubscribedAt) {
      return { drop: "address unsubscribed before its turn" };
    }
    // A report may have come back for the address since the copy was queued.
    if (await isSuppressed(db, subscription.email)) {
      return { drop: "address suppressed before its turn" };
    }
    const link = unsubscribeUrl(publicOrigin, signingSecret, subscription);
    const { html, text } = personalise(rendering, link, subscription);
    return {
      send: {
        messageId: message.messageId,
        from: sender,
        to: subscription.email,
        subject: fillMergeFields(rendering.title, subscription),
        html,
        text,
        headers: {
          ...unsubscribeHeaders(link),
          "List-Id": listId(publicOrigin),
          "Feedback-ID": feedbackId(publicOrigin, newsletter.issueId),
        },
      },
      spacingMs: 1000 / rendering.rate,
    };
  };
}
