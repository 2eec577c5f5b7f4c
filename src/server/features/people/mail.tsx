/**
 * The mail a console account gets: an invitation or a password reset, each a
 * single-use link to set a password. Queued inside the token's own transaction.
 */
import { SET_PASSWORD_PAGE } from "../../../shared/admin/auth.ts";
import { SITE } from "../../../shared/site.ts";
import type { UserTokenPurpose } from "../../platform/db/schema.ts";
import { MailFrame, MailLink, Paragraph, renderEmailHtml } from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";

export interface AccountMailSettings {
  from: string;
  publicOrigin: string;
}

const ACCOUNT_LINK_TEXTS = {
  invite: {
    subject: `You are invited to the ${SITE.shortName} website console`,
    lead: `You have been given an account on the console of ${SITE.firmName}'s website. Open this link to choose your password:`,
    expiry: "The link works once, within seven days.",
  },
  reset: {
    subject: `Set a new password for the ${SITE.shortName} website console`,
    lead: "Someone asked to set a new password for your console account. If it was you, open this link:",
    expiry:
      "The link works once, within one hour. If you did not ask, ignore this e-mail: your password stays as it is.",
  },
} as const;

/** An invitation or a password reset: a single-use link to set a password. */
export function accountLink(
  purpose: keyof typeof ACCOUNT_LINK_TEXTS,
  to: string,
  link: string,
  settings: Pick<AccountMailSettings, "from">,
): MailMessage {
  const { subject, lead, expiry } = ACCOUNT_LINK_TEXTS[purpose];
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    subject,
    headers: AUTO_SUBMITTED,
    text: [lead, "", link, "", expiry].join("\n"),
    html: renderEmailHtml(
      <MailFrame title={subject}>
        <Paragraph>{lead}</Paragraph>
        <Paragraph>
          <MailLink href={link}>Set your password</MailLink>
        </Paragraph>
        <Paragraph>{expiry}</Paragraph>
      </MailFrame>,
    ),
  };
}

export class AccountMail {
  constructor(private readonly settings: AccountMailSettings) {}

  /** Queues an invitation or reset link; returns the link (the CLI prints it too). */
  async link(
    trx: OutboxTransaction,
    purpose: UserTokenPurpose,
    to: string,
    token: string,
  ): Promise<string> {
    const link = `${new URL(SET_PASSWORD_PAGE, this.settings.publicOrigin)}#token=${token}`;
    await enqueueMail(trx, `account-${purpose}`, accountLink(purpose, to, link, this.settings));
    return link;
  }
}
