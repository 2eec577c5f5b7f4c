/**
 * An Insight issue's page (/insight/<slug>): the issue as an article (its
 * date, title, summary and body, at a readable measure), a way back to the
 * archive, and the invitation to subscribe. The body is the HTML rendered
 * from the issue's Markdown when its send was asked for, which lets no raw
 * HTML through (shared/insight.ts).
 */
import { Link } from "react-router";
import type { InsightIssue } from "../../../shared/insight.ts";
import { INSIGHT_PATH } from "../../../shared/routes.ts";
import { InsightStyles } from "./InsightStyles.tsx";
import { IssueDate } from "./IssueDate.tsx";
import { SubscribeInvitation } from "./SubscribeInvitation.tsx";

export function InsightIssuePage({ issue }: { issue: InsightIssue }) {
  return (
    <>
      <InsightStyles />
      <article className="insight-issue" aria-labelledby="insight-issue-title">
        <header className="insight-issue__header">
          <div className="insight-issue__measure">
            <nav className="insight-issue__nav" aria-label="Breadcrumb">
              {/* The archive is the server's page (load-from-server.ts): load it. */}
              <Link reloadDocument to={INSIGHT_PATH}>
                Insight archive
              </Link>
            </nav>
            <p className="insight-issue__kicker">
              Insight · <IssueDate publishedAt={issue.publishedAt} />
            </p>
            <h1 id="insight-issue-title" className="insight-issue__title">
              {issue.title}
            </h1>
            <p className="insight-issue__summary">{issue.summary}</p>
          </div>
        </header>
        <div
          className="insight-issue__measure insight-prose"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown by the server, which lets no raw HTML through
          dangerouslySetInnerHTML={{ __html: issue.html }}
        />
      </article>
      <div className="insight-issue__measure insight-issue__after">
        <SubscribeInvitation id="insight-invitation-title" title="Enjoyed this issue?" />
        <p className="insight-issue__back">
          <Link reloadDocument to={INSIGHT_PATH}>
            Read past issues
          </Link>
        </p>
      </div>
    </>
  );
}
