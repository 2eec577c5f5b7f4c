/**
 * A subscriber's status as a badge: active in the site's ink, unsubscribed
 * muted, suppressed in the accent; and the mark of an address on the
 * suppression list where its status does not already say so (one awaiting
 * its confirmation, or one that has unsubscribed).
 */
import { STATUS_LABELS, type SubscriberStatus } from "../../../shared/admin/subscribers.ts";

export function StatusBadge({ status }: { status: SubscriberStatus }) {
  return <span className={`badge subscriber-badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function SuppressedBadge({
  status,
  suppressed,
}: {
  status: SubscriberStatus;
  suppressed: boolean;
}) {
  return suppressed && status !== "suppressed" ? (
    <span className="badge subscriber-badge-suppressed">On the suppression list</span>
  ) : null;
}
