/**
 * One issue. An editor writes a draft here, previews it, tests it and sends
 * or schedules it; from then on the screen shows the send as it goes, asking
 * the server again every 1.5 s while anything can change on its own
 * (scheduled, queuing, sending). Once sent, its archive page can be corrected
 * or withdrawn (ArchivePanel); what it brought is shown from its first
 * copies on (IssueFiguresPanel). A viewer reads the same screen without the
 * controls.
 */
import { useCallback, useEffect, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import {
  type IssueDetail,
  type IssueStatus,
  issueIdSchema,
  NEWSLETTER_TEXTS,
} from "../../../shared/admin/newsletter.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { read } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { Notice } from "../../components/Notice.tsx";
import { ArchivePanel } from "./ArchivePanel.tsx";
import { DraftEditor } from "./DraftEditor.tsx";
import { IssueFacts } from "./IssueFacts.tsx";
import { IssueFiguresPanel } from "./IssueFiguresPanel.tsx";
import { IssueHead } from "./IssueHead.tsx";
import { PreviewPanel } from "./PreviewPanel.tsx";
import { ProgressPanel } from "./ProgressPanel.tsx";
import { type ArrivalState, NEWSLETTER_ROUTE } from "./routes.ts";

/** States that change without anyone in the console doing anything. */
const MOVING: readonly IssueStatus[] = ["scheduled", "queuing", "sending"];
const POLL_MS = 1500;
/** States in which copies have gone out. */
const BROUGHT: readonly IssueStatus[] = ["sending", "paused", "sent", "cancelled"];

export function IssueScreen() {
  const parsed = issueIdSchema.safeParse(useParams());
  if (!parsed.success) {
    return (
      <>
        <IssueHead issue={null} />
        <Notice tone="error">{NEWSLETTER_TEXTS.notFound}</Notice>
      </>
    );
  }
  // Another issue is another screen: nothing of the last one's state stays.
  return <Issue key={parsed.data.id} id={parsed.data.id} />;
}

function Issue({ id }: { id: number }) {
  const navigate = useNavigate();
  const arrival = (useLocation().state ?? {}) as ArrivalState;
  const writes = hasRole(useMe().role, "editor");
  const loaded = useResource(read("newsletter.read", { params: { id } }));
  const { setData: setIssue, error: failure, reload } = loaded;
  const issue = loaded.data ?? null;
  // A draft's screen is read again only on request: its form holds what is being typed.
  useKeptCurrent(issue !== null && MOVING.includes(issue.status) ? reload : null, POLL_MS);

  // A send, a schedule, an unschedule or a cancel replaces the buttons that asked for it:
  // the focus, left on nothing, goes to the issue's title rather than to the page's start.
  const [actions, setActions] = useState(0);
  const changedByAction = useCallback(
    (changed: IssueDetail) => {
      setIssue(changed);
      setActions((n) => n + 1);
    },
    [setIssue],
  );
  useEffect(() => {
    if (actions > 0 && (document.activeElement ?? document.body) === document.body) {
      document.getElementById("issue-title")?.focus();
    }
  }, [actions]);

  const deleted = useCallback(() => {
    const state: ArrivalState = { notice: `The draft “${issue?.title}” was deleted.` };
    navigate(NEWSLETTER_ROUTE, { state });
  }, [issue, navigate]);

  return (
    <section aria-labelledby="issue-title" className="issue">
      <IssueHead issue={issue} />
      {arrival.notice && issue?.version === 1 ? (
        <Notice tone="success">{arrival.notice}</Notice>
      ) : null}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      {issue === null ? (
        failure ? null : (
          <p className="loading" role="status">
            Loading the issue…
          </p>
        )
      ) : issue.status === "draft" && writes ? (
        <DraftEditor
          issue={issue}
          onSaved={setIssue}
          onSent={changedByAction}
          onReload={reload}
          onDeleted={deleted}
        />
      ) : (
        <div className={`issue-layout${issue.status === "draft" ? " issue-layout--single" : ""}`}>
          {issue.status === "draft" ? null : (
            <ProgressPanel issue={issue} controls={writes} onChanged={changedByAction} />
          )}
          <IssueFacts issue={issue} />
          {/* Once copies went out, what they brought. */}
          {BROUGHT.includes(issue.status) ? <IssueFiguresPanel issue={issue} /> : null}
          {/* Once the last copy went out, the archive's page may still be corrected or withdrawn. */}
          {issue.status === "sent" ? (
            <ArchivePanel issue={issue} controls={writes} onChanged={setIssue} />
          ) : null}
          <PreviewPanel issue={issue} />
        </div>
      )}
    </section>
  );
}
