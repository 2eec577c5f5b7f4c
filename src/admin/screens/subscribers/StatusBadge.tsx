/** A subscriber's status as a badge: active in the site's ink, unsubscribed muted. */
import { STATUS_LABELS, type SubscriberStatus } from "../../../shared/admin/subscribers.ts";

export function StatusBadge({ status }: { status: SubscriberStatus }) {
  return <span className={`badge subscriber-badge-${status}`}>{STATUS_LABELS[status]}</span>;
}
