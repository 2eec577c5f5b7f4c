/**
 * The top of an issue's screen: the way back, its title, and where it
 * stands. The title takes the focus when an action replaces the part of the
 * screen that had it (IssueScreen).
 */
import { Link } from "react-router";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { Moment } from "../people/Moment.tsx";
import { IssueStatusBadge } from "./IssueStatusBadge.tsx";
import { NEWSLETTER_ROUTE } from "./routes.ts";

export function IssueHead({ issue }: { issue: IssueDetail | null }) {
  return (
    <>
      <p className="newsletter-back">
        <Link to={NEWSLETTER_ROUTE}>
          <span aria-hidden="true">← </span>All issues
        </Link>
      </p>
      <div className="screen-head issue-head">
        <div>
          <h1 id="issue-title" tabIndex={-1}>
            {issue ? issue.title : "New issue"}
          </h1>
          {issue ? (
            <p className="issue-meta">
              <IssueStatusBadge status={issue.status} /> Version {issue.version} · by {issue.author}{" "}
              · last changed <Moment iso={issue.updatedAt} />
            </p>
          ) : (
            <p className="issue-meta">
              Write it, save it, preview it and send yourself a test; then send it or schedule it.
            </p>
          )}
        </div>
      </div>
    </>
  );
}
