/** A new issue: an empty draft form; once created, the issue opens at its own address. */
import { Navigate, useNavigate } from "react-router";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { useMe } from "../../auth/session.tsx";
import { IssueForm } from "./IssueForm.tsx";
import { IssueHead } from "./IssueHead.tsx";
import { type ArrivalState, issueRoute, NEWSLETTER_ROUTE } from "./routes.ts";
import { useDraftForm } from "./use-draft-form.ts";

const CREATED =
  "Created as a draft. Preview it below, send yourself a test, then send it or schedule it.";

export function NewIssueScreen() {
  const writes = hasRole(useMe().role, "editor");
  return writes ? <NewIssue /> : <Navigate to={NEWSLETTER_ROUTE} replace />;
}

function NewIssue() {
  const navigate = useNavigate();
  const draft = useDraftForm(null, (issue: IssueDetail) => {
    const state: ArrivalState = { notice: CREATED };
    navigate(issueRoute(issue.id), { replace: true, state });
  });

  return (
    <section aria-labelledby="issue-title" className="issue">
      <IssueHead issue={null} />
      <div className="issue-layout">
        <IssueForm issue={null} draft={draft} />
        <section className="panel send-panel" aria-labelledby="send-title">
          <h2 id="send-title">Send</h2>
          <p className="send-panel__lead">
            Create the draft first; then you can preview it, send yourself a test, and send it or
            schedule it.
          </p>
        </section>
      </div>
    </section>
  );
}
