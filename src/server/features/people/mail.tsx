/**
 * The mail a console account gets: an invitation or a password reset, each a
 * single-use link to set a password. Queued inside the token's own transaction.
 */
import { SET_PASSWORD_PAGE } from "../../../shared/admin/auth.ts";
import { aRole, type Role, roleSentence } from "../../../shared/admin/roles.ts";
import { SITE } from "../../../shared/site.ts";
import type { ConsoleUser } from "../../platform/console/users.ts";
import { MailFrame, MailLink, oneLine, Paragraph } from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { renderMail } from "../../platform/outbox/render.ts";

/** What one account mail is made with: the sender in force. */
export interface AccountMailSettings {
  from: string;
}

/** The sender in force, read in the transaction that queues the mail. */
export type SenderOf = (trx: OutboxTransaction) => Promise<string>;

/**
 * Who an invitation is from: the person who sent (or re-sent) it from the
 * console, or the server's command line, behind which no one is known by name.
 */
export type Inviter = Pick<ConsoleUser, "name" | "email"> | "command line";

export interface Invitation {
  to: string;
  /** The account's role: the one the invitee has once they set a password. */
  role: Role;
  inviter: Inviter;
}

/** One link mail's words: the paragraphs before the link, and its validity after it. */
interface LinkTexts {
  subject: string;
  lead: string[];
  expiry: string;
}

const CONSOLE = `the ${SITE.shortName} website console`;

function invitationTexts({ role, inviter }: Invitation): LinkTexts {
  let subject: string;
  let invitedBy: string;
  if (inviter === "command line") {
    // Whoever ran the command could reach the server, which is all it can say of them.
    subject = `You are invited to ${CONSOLE}`;
    invitedBy = "The site's administrator";
  } else {
    // A name alone proves little to someone who may not know it; the address says where it is from.
    const name = oneLine(inviter.name);
    subject = `${name || inviter.email} invited you to ${CONSOLE}`;
    invitedBy = name ? `${name} (${inviter.email})` : inviter.email;
  }
  return {
    subject,
    lead: [
      `${invitedBy} invited you to the console of ${SITE.firmName}'s website, as ${aRole(role)}. ${roleSentence(role)}`,
      "Open this link to choose your password:",
    ],
    expiry: "The link works once, within seven days.",
  };
}

const RESET_TEXTS: LinkTexts = {
  subject: `Set a new password for ${CONSOLE}`,
  lead: [
    "Someone asked to set a new password for your console account. If it was you, open this link:",
  ],
  expiry:
    "The link works once, within one hour. If you did not ask, ignore this e-mail: your password stays as it is.",
};

function linkMail(
  { subject, lead, expiry }: LinkTexts,
  to: string,
  link: string,
  settings: AccountMailSettings,
): MailMessage {
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    subject,
    headers: AUTO_SUBMITTED,
    ...renderMail(
      <MailFrame title={subject}>
        {lead.map((paragraph) => (
          <Paragraph key={paragraph}>{paragraph}</Paragraph>
        ))}
        <Paragraph>
          <MailLink href={link}>Set your password</MailLink>
        </Paragraph>
        <Paragraph>{expiry}</Paragraph>
      </MailFrame>,
    ),
  };
}

/** An invitation: who sent it, the role it gives, and a single-use link to set a password. */
export function invitationMail(
  invitation: Invitation,
  link: string,
  settings: AccountMailSettings,
): MailMessage {
  return linkMail(invitationTexts(invitation), invitation.to, link, settings);
}

/** A password reset: a single-use link to set a new password. */
export function resetMail(to: string, link: string, settings: AccountMailSettings): MailMessage {
  return linkMail(RESET_TEXTS, to, link, settings);
}

export class AccountMail {
  constructor(private readonly settings: { publicOrigin: string; sender: SenderOf }) {}

  private linkFor(token: string): string {
    return `${new URL(SET_PASSWORD_PAGE, this.settings.publicOrigin)}#token=${token}`;
  }

  /** Queues an invitation; returns its link (the CLI prints it too). */
  async invitation(trx: OutboxTransaction, invitation: Invitation, token: string): Promise<string> {
    const link = this.linkFor(token);
    const from = await this.settings.sender(trx);
    await enqueueMail(trx, "account-invite", invitationMail(invitation, link, { from }));
    return link;
  }

  /** Queues a password reset; returns its link (the CLI prints it too). */
  async reset(trx: OutboxTransaction, to: string, token: string): Promise<string> {
    const link = this.linkFor(token);
    const from = await this.settings.sender(trx);
    await enqueueMail(trx, "account-reset", resetMail(to, link, { from }));
    return link;
  }
}
