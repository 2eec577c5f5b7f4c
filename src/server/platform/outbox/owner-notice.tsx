/**
 * A notice to the firm's owners when something needs them (a send paused
 * itself, a scheduled backup failed): what happened, what it means, and a
 * link into the console; marked as sent by the machine, so no auto-reply
 * answers it.
 */
import type { Kysely } from "kysely";
import { SITE } from "../../../shared/site.ts";
import type { Database } from "../db/schema.ts";
import { MailFrame, MailLink, Paragraph, renderEmailHtml } from "./layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "./message.ts";

export interface OwnerNotice {
  subject: string;
  /** What happened, in one sentence. */
  lead: string;
  /** What it means, ending where the link leads. */
  next: string;
  link: string;
  linkText: string;
}

export function ownerNoticeMail(
  to: string,
  { subject, lead, next, link, linkText }: OwnerNotice,
  from: string,
): MailMessage {
  return {
    messageId: newMessageId(from),
    from,
    to,
    subject,
    headers: AUTO_SUBMITTED,
    text: [lead, "", next, link, "", `The ${SITE.shortName} website`].join("\n"),
    html: renderEmailHtml(
      <MailFrame title={subject}>
        <Paragraph>{lead}</Paragraph>
        <Paragraph>{next}</Paragraph>
        <Paragraph>
          <MailLink href={link}>{linkText}</MailLink>
        </Paragraph>
      </MailFrame>,
    ),
  };
}

/** The owners who can sign in (an invited owner who never set a password is left out). */
export async function ownerAddresses(db: Kysely<Database>): Promise<string[]> {
  const owners = await db
    .selectFrom("users")
    .select("email")
    .where("role", "=", "owner")
    .where("password_hash", "is not", null)
    .execute();
  return owners.map(({ email }) => email);
}
