/** An issue's status as a badge: the word says it, the colour helps the eye find the live ones. */
import { ISSUE_STATUS_LABELS, type IssueStatus } from "../../../shared/admin/newsletter.ts";

export function IssueStatusBadge({ status }: { status: IssueStatus }) {
  return (
    <span className={`badge issue-badge issue-badge-${status}`}>{ISSUE_STATUS_LABELS[status]}</span>
  );
}
