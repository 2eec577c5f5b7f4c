/**
 * The test mail an owner sends to themselves after changing the sender: it
 * leaves by the outbox like every other mail, with the settings in force,
 * and says what they are, so the owner sees in their own mailbox how the
 * From reads and where inquiries go.
 */
import { MailFrame, MailHeading, Paragraph } from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";
import { renderMail } from "../../platform/outbox/render.ts";
import type { MailSettings } from "./settings.ts";

export const TEST_MAIL_KIND = "mail-settings-test";

export function testMail(to: string, settings: MailSettings): MailMessage {
  const subject = "Test mail from the website";
  const lines = [
    "The website sent this mail to show how its mail reads with the settings saved in the console.",
    `It comes from: ${settings.from}`,
    `Inquiries go to: ${settings.inquiryTo.join(", ")}`,
  ];
  return {
    messageId: newMessageId(settings.from),
    from: settings.from,
    to,
    headers: AUTO_SUBMITTED,
    subject,
    ...renderMail(
      <MailFrame title={subject}>
        <MailHeading>{subject}</MailHeading>
        {lines.map((line) => (
          <Paragraph key={line}>{line}</Paragraph>
        ))}
      </MailFrame>,
    ),
  };
}
