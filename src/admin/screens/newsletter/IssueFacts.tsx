/** An issue's text at a glance, read-only: once it is being sent, or for a viewer. */
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { insightIssuePath } from "../../../shared/routes.ts";

export function IssueFacts({ issue }: { issue: IssueDetail }) {
  const address = insightIssuePath(issue.slug);
  return (
    <section className="panel issue-facts" aria-labelledby="issue-facts-title">
      <h2 id="issue-facts-title">The issue</h2>
      {issue.status === "draft" ? (
        <p className="issue-facts__lead">
          A draft: an editor writes it and sends it. The preview shows its last saved version.
        </p>
      ) : null}
      <dl>
        <div>
          <dt>Title</dt>
          <dd>{issue.title}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            {issue.status === "sent" ? (
              <a href={address} target="_blank" rel="noreferrer">
                {address}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              <code>{address}</code>
            )}
          </dd>
        </div>
        <div>
          <dt>Summary</dt>
          <dd>{issue.summary}</dd>
        </div>
        <div>
          <dt>Written by</dt>
          <dd>{issue.author}</dd>
        </div>
      </dl>
    </section>
  );
}
