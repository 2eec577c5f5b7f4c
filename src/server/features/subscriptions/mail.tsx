/**
 * The mail a subscription makes: the welcome, with its unsubscribe link and
 * headers, and with double opt-in the confirmation link. Queued inside the
 * subscription's own transaction.
 */
import { CONFIRM_SUBSCRIPTION_PATH } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import {
  MailFrame,
  MailLink,
  oneLine,
  Paragraph,
  renderEmailHtml,
} from "../../platform/outbox/layout.tsx";
import { type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { signConfirmToken } from "./confirm-token.ts";
import type { Subscription } from "./queries.ts";
import { unsubscribeUrl } from "./unsubscribe-token.ts";

export interface SubscriptionMailSettings {
  from: string;
  publicOrigin: string;
  signingSecret: string;
}

/**
 * RFC 2919: the list's name and an identifier under the site's own domain.
 * Every mail of the list carries it, the newsletter's copies and the
 * subscription's own, so filters and mailbox providers see them as one list.
 */
export function listId(publicOrigin: string): string {
  return `Insight <insight.${new URL(publicOrigin).hostname}>`;
}

/** RFC 2369 and RFC 8058 headers: mail clients offer a one-click unsubscribe. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

export function welcome(
  email: string,
  unsubscribeUrl: string,
  settings: Pick<SubscriptionMailSettings, "from" | "publicOrigin">,
): MailMessage {
  const subject = `Welcome to Insight from ${SITE.firmName}`;
  const lines = [
    "Thank you for subscribing to Insight.",
    "Once a month we send practical notes on data, cloud and machine learning from the people doing the work: what worked, what did not, and what we would do again.",
    "Your first issue arrives with the next edition.",
  ];
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: email,
    subject,
    headers: { ...unsubscribeHeaders(unsubscribeUrl), "List-Id": listId(settings.publicOrigin) },
    text: [
      ...lines,
      "",
      `The ${SITE.shortName} team`,
      "",
      `To stop receiving Insight, open: ${unsubscribeUrl}`,
    ].join("\n"),
    html: renderEmailHtml(
      <MailFrame title={subject}>
        {[...lines, `The ${SITE.shortName} team`].map((line) => (
          <Paragraph key={line}>{line}</Paragraph>
        ))}
        <Paragraph small>
          You receive this because {email} subscribed on our website.{" "}
          <MailLink href={unsubscribeUrl}>Unsubscribe</MailLink>.
        </Paragraph>
      </MailFrame>,
    ),
  };
}

/**
 * Double opt-in (NEWSLETTER_DOUBLE_OPT_IN): asks the person behind a new
 * subscription to confirm their address. It names the list it is about, but
 * carries no unsubscribe headers, since nothing is sent to an address that
 * does not confirm.
 */
export function subscriptionConfirmation(
  email: string,
  confirmUrl: string,
  validHours: number,
  settings: Pick<SubscriptionMailSettings, "from" | "publicOrigin">,
): MailMessage {
  const subject = "Please confirm your subscription to Insight";
  const lead = `Someone, hopefully you, asked to receive Insight, the monthly newsletter of ${SITE.firmName}, at ${oneLine(email)}. To start receiving it, open this link and confirm:`;
  const expiry = `The link works for ${validHours} hours. If you did not ask for Insight, ignore this e-mail: without a confirmation, nothing more is sent to you.`;
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: email,
    subject,
    headers: { "List-Id": listId(settings.publicOrigin) },
    text: [lead, "", confirmUrl, "", expiry, "", `The ${SITE.shortName} team`].join("\n"),
    html: renderEmailHtml(
      <MailFrame title={subject}>
        <Paragraph>{lead}</Paragraph>
        <Paragraph>
          <MailLink href={confirmUrl}>Confirm my subscription</MailLink>
        </Paragraph>
        <Paragraph>{expiry}</Paragraph>
        <Paragraph>The {SITE.shortName} team</Paragraph>
      </MailFrame>,
    ),
  };
}

export class SubscriptionMail {
  constructor(private readonly settings: SubscriptionMailSettings) {}

  async welcome(trx: OutboxTransaction, subscription: Subscription): Promise<void> {
    await enqueueMail(
      trx,
      "welcome",
      welcome(subscription.email, this.unsubscribeUrl(subscription), this.settings),
    );
  }

  /** Double opt-in: the link that confirms a new subscription, working for `validHours`. */
  async confirmation(
    trx: OutboxTransaction,
    subscription: Subscription,
    validHours: number,
  ): Promise<void> {
    const url = new URL(CONFIRM_SUBSCRIPTION_PATH, this.settings.publicOrigin);
    url.searchParams.set("token", signConfirmToken(this.settings.signingSecret, subscription));
    await enqueueMail(
      trx,
      "subscription-confirmation",
      subscriptionConfirmation(subscription.email, url.toString(), validHours, this.settings),
    );
  }

  unsubscribeUrl(subscription: Subscription): string {
    return unsubscribeUrl(this.settings.publicOrigin, this.settings.signingSecret, subscription);
  }
}
