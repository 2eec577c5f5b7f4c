/**
 * A notice to the firm's owners when something needs them (a send paused
 * itself, a scheduled backup failed): what happened, what it means, and a
 * link into the console; marked as sent by the machine, so no auto-reply
 * answers it.
 */
import { MailFrame, MailLink, Paragraph } from "./layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "./message.ts";
import { renderMail } from "./render.ts";

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
    ...renderMail(
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
