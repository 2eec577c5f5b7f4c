/**
 * The report that put an address on the list, opened below its row: what it
 * said and how it came, then its own words as the receiving server or the
 * provider wrote them, kept as written and wrapped to the width.
 */
import { Link } from "react-router";
import {
  type DeliveryReportView,
  REPORT_KIND_LABELS,
  sourceLabel,
} from "../../../shared/admin/suppressions.ts";
import { issueRoute } from "../newsletter/routes.ts";
import { formatMoment } from "../subscribers/dates.ts";

interface ReportDetailProps {
  id: string;
  email: string;
  report: DeliveryReportView;
}

export function ReportDetail({ id, email, report }: ReportDetailProps) {
  const { kind, status, source, receivedAt, issue, text } = report;
  return (
    <section id={id} className="report" aria-label={`Report on ${email}`}>
      <dl className="report-facts">
        <div>
          <dt>Report</dt>
          <dd>
            {REPORT_KIND_LABELS[kind]}
            {status ? `, status ${status}` : ""}
          </dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>
            <time dateTime={receivedAt}>{formatMoment(receivedAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{sourceLabel(source)}</dd>
        </div>
        {issue ? (
          <div>
            <dt>About the issue</dt>
            <dd>
              {issue.title ? <Link to={issueRoute(issue.id)}>{issue.title}</Link> : "Since deleted"}
            </dd>
          </div>
        ) : null}
      </dl>
      <pre className="report-text">{text || "The report gave no text."}</pre>
    </section>
  );
}
