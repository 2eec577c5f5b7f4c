/** The mail every owner gets when a scheduled backup fails. */

import { BACKUPS_SCREEN } from "../../../shared/admin/backups.ts";
import type { MailMessage } from "../../platform/outbox/message.ts";
import { ownerNoticeMail } from "../../platform/outbox/owner-notice.tsx";

export const BACKUP_FAILED_KIND = "backup-failed";

export function backupFailedMail(
  to: string,
  { startedAt, reason }: { startedAt: string; reason: string },
  { from, publicOrigin }: { from: string; publicOrigin: string },
): MailMessage {
  return ownerNoticeMail(
    to,
    {
      subject: "The scheduled backup failed",
      lead: `The backup that started at ${startedAt} (UTC) did not complete: ${reason}`,
      next: "Until one succeeds, the site's latest data is in no archive. The console lists the backups and their results:",
      link: `${publicOrigin}/admin/${BACKUPS_SCREEN}`,
      linkText: "Open the backups",
    },
    from,
  );
}
