/** The mail every owner gets when a scheduled backup fails. */

import { BACKUPS_SCREEN } from "../../../shared/admin/backups.ts";
import { SITE } from "../../../shared/site.ts";
import { MailFrame, MailLink, Paragraph, renderEmailHtml } from "../../platform/outbox/layout.tsx";
import { AUTO_SUBMITTED, type MailMessage, newMessageId } from "../../platform/outbox/message.ts";

export const BACKUP_FAILED_KIND = "backup-failed";

export function backupFailedMail(
  to: string,
  { startedAt, reason }: { startedAt: string; reason: string },
  { from, publicOrigin }: { from: string; publicOrigin: string },
): MailMessage {
  const subject = "The scheduled backup failed";
  const lead = `The backup that started at ${startedAt} (UTC) did not complete: ${reason}`;
  const next =
    "Until one succeeds, the site's latest data is in no archive. The console lists the backups and their results:";
  const link = `${publicOrigin}/admin/${BACKUPS_SCREEN}`;
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
          <MailLink href={link}>Open the backups</MailLink>
        </Paragraph>
      </MailFrame>,
    ),
  };
}
