/** Why an address is suppressed, as a badge: a complaint loudest, repeated soft bounces quietest. */
import { REASON_LABELS, type SuppressionReason } from "../../../shared/admin/suppressions.ts";

export function ReasonBadge({ reason }: { reason: SuppressionReason }) {
  return <span className={`badge reason-badge reason-${reason}`}>{REASON_LABELS[reason]}</span>;
}
