/**
 * A subscriber's status as a badge: active in the site's ink, unsubscribed
 * muted; and the mark of an address on the suppression list, which gets no
 * Insight whatever its status.
 */
import { STATUS_LABELS, type SubscriberStatus } from "../../../shared/admin/subscribers.ts";

export function StatusBadge({ status }: { status: SubscriberStatus }) {
  return <span className={`badge subscriber-badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function SuppressedBadge({ suppressed }: { suppressed: boolean }) {
  return suppressed ? <span className="badge subscriber-badge-suppressed">Suppressed</span> : null;
}
