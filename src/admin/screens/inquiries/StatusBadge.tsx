/** An inquiry's status as a coloured label; the word carries the meaning, the colour helps scanning. */
import { type InquiryStatus, STATUS_LABELS } from "../../../shared/admin/inquiries.ts";

export function StatusBadge({ status }: { status: InquiryStatus }) {
  return <span className={`badge status-badge status-${status}`}>{STATUS_LABELS[status]}</span>;
}
