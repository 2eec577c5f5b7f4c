/**
 * The Insight archive (/insight): every issue sent, newest first, each with
 * its date, title (the link to the issue) and summary; beside the list, the
 * invitation to subscribe. Before the first issue, a word that it is coming.
 */
import { Link } from "react-router";
import type { InsightSummary } from "../../../shared/insight.ts";
import { insightIssuePath } from "../../../shared/routes.ts";
import { PageHero } from "../../components/PageHero.tsx";
import { InsightStyles } from "./InsightStyles.tsx";
import { IssueDate } from "./IssueDate.tsx";
import { SubscribeInvitation } from "./SubscribeInvitation.tsx";

export function InsightArchive({ issues }: { issues: readonly InsightSummary[] }) {
  return (
    <>
      <InsightStyles />
      <PageHero id="insight-title" eyebrow="Newsletter archive" title="Insight">
        Practical notes on data, cloud and machine learning from the people doing the work. Every
        issue we have sent, newest first.
      </PageHero>
      <div className="section section--warm">
        <div className="container insight-archive">
          {issues.length > 0 ? (
            <ol className="insight-list" aria-labelledby="insight-title">
              {issues.map((issue) => (
                <IssueCard key={issue.slug} issue={issue} />
              ))}
            </ol>
          ) : (
            <div className="insight-empty">
              <h2 className="insight-empty__title">The first issue is on its way</h2>
              <p>
                Insight goes out once a month. Every issue appears here the day it is sent, so check
                back soon, or subscribe and have it in your inbox first.
              </p>
            </div>
          )}
          <SubscribeInvitation id="insight-invitation-title" title="Get the next issue" />
        </div>
      </div>
    </>
  );
}

function IssueCard({ issue }: { issue: InsightSummary }) {
  const titleId = `issue-${issue.slug}`;
  return (
    <li className="insight-card">
      <article aria-labelledby={titleId}>
        <IssueDate className="insight-card__date" publishedAt={issue.publishedAt} />
        <h2 id={titleId} className="insight-card__title">
          {/* The page is the server's (load-from-server.ts): load it, do not route to it. */}
          <Link reloadDocument to={insightIssuePath(issue.slug)} className="insight-card__link">
            {issue.title}
          </Link>
        </h2>
        <p className="insight-card__summary">{issue.summary}</p>
        <span className="insight-card__more" aria-hidden="true">
          Read the issue <span className="insight-card__arrow">→</span>
        </span>
      </article>
    </li>
  );
}
