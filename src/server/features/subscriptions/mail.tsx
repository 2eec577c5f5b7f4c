/**
 * The mail a subscription makes: the welcome, with its unsubscribe link and
 * headers, and with double opt-in the confirmation link. Queued inside the
 * subscription's own transaction, each at most once per address within the
 * cooldown (mail-cooldown.ts).
 */
import type { FastifyBaseLogger } from "fastify";
import { CONFIRM_SUBSCRIPTION_PATH } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import { renderMarkdown } from "../../platform/markdown/markdown.ts";
import { givingWay } from "../../platform/ops/give-way.ts";
import { MailFrame, MailLink, oneLine, Paragraph } from "../../platform/outbox/layout.tsx";
import { type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail, enqueueMails, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { fillPlaceholders, renderMail } from "../../platform/outbox/render.ts";
import { signConfirmToken } from "./confirm-token.ts";
import { type MailCooldown, takeMailTurn } from "./mail-cooldown.ts";
import type { Subscription } from "./queries.ts";
import { unsubscribeUrl } from "./unsubscribe-token.ts";

export interface SubscriptionMailSettings {
  publicOrigin: string;
  signingSecret: string;
  cooldown: MailCooldown;
  /** The sender and the welcome's text in force, read in the subscription's transaction. */
  mailSettings(trx: OutboxTransaction): Promise<{ from: string; welcomeText: string | null }>;
}

/** What one message is made with: the sender in force and the site's origin. */
interface MessageSettings {
  from: string;
  publicOrigin: string;
}

/** Stand-ins an import's confirmation is rendered with once, then replaced per address. */
const ADDRESS_MARK = "imported.address.mark@example.invalid";
const LINK_MARK = "https://confirmation-link.example.invalid/mark";

const WELCOME_KIND = "welcome";
const CONFIRMATION_KIND = "subscription-confirmation";
/** Confirmations built and queued at a time: a few milliseconds' work. */
const CONFIRMATIONS_PER_BATCH = 200;

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

const BUILT_IN_WELCOME = [
  "Thank you for subscribing to Insight.",
  "Once a month we send practical notes on data, cloud and machine learning from the people doing the work: what worked, what did not, and what we would do again.",
  "Your first issue arrives with the next edition.",
];
const SIGN_OFF = `The ${SITE.shortName} team`;

/**
 * The welcome's own words: the owners' Markdown from the console's mail
 * settings, or the built-in paragraphs. The subject, the list headers and
 * the unsubscribe link around them are not theirs to change.
 */
function welcomeBody(welcomeText: string | null, publicOrigin: string) {
  if (welcomeText === null) {
    return [...BUILT_IN_WELCOME, SIGN_OFF].map((line) => <Paragraph key={line}>{line}</Paragraph>);
  }
  const { emailHtml } = renderMarkdown(welcomeText, { pageUrl: publicOrigin });
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the Markdown renderer's output, which escapes raw HTML and checks every link
    <div dangerouslySetInnerHTML={{ __html: emailHtml }} />
  );
}

export function welcome(
  email: string,
  unsubscribeUrl: string,
  settings: MessageSettings & { welcomeText: string | null },
): MailMessage {
  const subject = `Welcome to Insight from ${SITE.firmName}`;
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to: email,
    subject,
    headers: { ...unsubscribeHeaders(unsubscribeUrl), "List-Id": listId(settings.publicOrigin) },
    ...renderMail(
      <MailFrame title={subject}>
        {welcomeBody(settings.welcomeText, settings.publicOrigin)}
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
  settings: MessageSettings,
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
    ...renderMail(
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
  constructor(
    private readonly settings: SubscriptionMailSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  async welcome(trx: OutboxTransaction, subscription: Subscription): Promise<void> {
    if (!(await this.mayMail(trx, subscription, WELCOME_KIND))) return;
    const { from, welcomeText } = await this.settings.mailSettings(trx);
    const { publicOrigin } = this.settings;
    await enqueueMail(
      trx,
      WELCOME_KIND,
      welcome(subscription.email, this.unsubscribeUrl(subscription), {
        from,
        publicOrigin,
        welcomeText,
      }),
    );
  }

  /** Double opt-in: the link that confirms a new subscription, working for `validHours`. */
  async confirmation(
    trx: OutboxTransaction,
    subscription: Subscription,
    validHours: number,
  ): Promise<void> {
    if (!(await this.mayMail(trx, subscription, CONFIRMATION_KIND))) return;
    const url = new URL(CONFIRM_SUBSCRIPTION_PATH, this.settings.publicOrigin);
    url.searchParams.set("token", signConfirmToken(this.settings.signingSecret, subscription));
    const { from } = await this.settings.mailSettings(trx);
    await enqueueMail(
      trx,
      CONFIRMATION_KIND,
      subscriptionConfirmation(subscription.email, url.toString(), validHours, {
        from,
        publicOrigin: this.settings.publicOrigin,
      }),
    );
  }

  /**
   * Double opt-in for an import: one confirmation link per added address,
   * queued as bulk mail so a list of 100,000 does not hold back the firm's
   * own notifications, and paced per receiving domain like an issue. The
   * message is rendered once and each address and link put into it, since
   * rendering 100,000 times would take longer than the import itself. The
   * cooldown is not asked: these addresses are new to the list, and the
   * importer, not a stranger, asked for the mail.
   */
  async confirmations(
    trx: OutboxTransaction,
    subscriptions: readonly Subscription[],
    validHours: number,
  ): Promise<number> {
    if (subscriptions.length === 0) return 0;
    const { from } = await this.settings.mailSettings(trx);
    const { publicOrigin, signingSecret } = this.settings;
    const template = subscriptionConfirmation(ADDRESS_MARK, LINK_MARK, validHours, {
      from,
      publicOrigin,
    });
    const messageTo = (subscription: Subscription) => {
      const url = new URL(CONFIRM_SUBSCRIPTION_PATH, publicOrigin);
      url.searchParams.set("token", signConfirmToken(signingSecret, subscription));
      const link = url.toString();
      return {
        ...template,
        messageId: newMessageId(from),
        to: subscription.email,
        ...fillPlaceholders(template, { [ADDRESS_MARK]: subscription.email, [LINK_MARK]: link }),
      };
    };
    // A batch at a time, giving way to visitors between them: an import's
    // 200,000 messages at once would hold the server's thread for seconds
    // (SQLite writes on it) and half a gigabyte of text.
    const giveWay = givingWay();
    for (let start = 0; start < subscriptions.length; start += CONFIRMATIONS_PER_BATCH) {
      const batch = subscriptions.slice(start, start + CONFIRMATIONS_PER_BATCH);
      await enqueueMails(trx, CONFIRMATION_KIND, batch.map(messageTo), { priority: "bulk" });
      await giveWay();
    }
    return subscriptions.length;
  }

  /**
   * Whether the address may have this kind of mail now. Whoever asked hears
   * the same answer either way, so a stranger learns nothing of the address;
   * only the log tells, by the subscription's id.
   */
  private async mayMail(
    trx: OutboxTransaction,
    subscription: Subscription,
    kind: string,
  ): Promise<boolean> {
    const { cooldown, signingSecret } = this.settings;
    const turn = await takeMailTurn(trx, cooldown, signingSecret, subscription.email, kind);
    if (!turn) {
      this.log.info(
        { subscription: subscription.id, kind, cooldownMinutes: cooldown.minutes },
        "subscription mail not queued: the address had one within its cooldown",
      );
    }
    return turn;
  }

  unsubscribeUrl(subscription: Subscription): string {
    return unsubscribeUrl(this.settings.publicOrigin, this.settings.signingSecret, subscription);
  }
}
