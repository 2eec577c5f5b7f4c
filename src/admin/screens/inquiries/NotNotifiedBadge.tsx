/** Marks an inquiry whose notification to the firm failed: nobody was told of it by e-mail. */
import { NOT_NOTIFIED_LABEL, type NotificationState } from "../../../shared/admin/inquiries.ts";

export function NotNotifiedBadge({ notified }: { notified: NotificationState }) {
  if (notified !== "failed") return null;
  return <span className="badge not-notified-badge">{NOT_NOTIFIED_LABEL}</span>;
}
