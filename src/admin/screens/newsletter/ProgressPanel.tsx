/**
 * How far a send has gone, live: where it stands, a bar, the counts, the
 * rate and the times, in a line a screen reader hears as it changes; and,
 * for editors, pause, resume, cancel (after a confirmation) and unschedule.
 * The screen around it polls the issue while it moves (IssueScreen).
 */
import { type ReactNode, useId, useState } from "react";
import {
  type IssueDetail,
  RUNNING_STATUSES,
  segmentLabel,
} from "../../../shared/admin/newsletter.ts";
import { insightIssuePath } from "../../../shared/routes.ts";
import { capitalised } from "../../../shared/sentence.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { useOutcome } from "../inquiries/use-outcome.tsx";
import { Moment } from "../people/Moment.tsx";
import { count, isStarting, shareOf, summaryOf } from "./progress-summary.ts";

interface ProgressPanelProps {
  issue: IssueDetail;
  /** An editor: the send's controls are shown. */
  controls: boolean;
  onChanged(issue: IssueDetail): void;
}

export function ProgressPanel({ issue, controls, onChanged }: ProgressPanelProps) {
  const { progress } = issue;
  const { status } = progress;
  const barId = useId();
  const action = useOutcome();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const starting = isStarting(issue);
  // A send that is starting offers no control until the sender has taken it
  // (the next poll): it can no longer be unscheduled, and not yet paused.
  const scheduled = status === "scheduled" && !starting;
  const running = RUNNING_STATUSES.includes(status);
  const paused = status === "paused";
  // Once sent or cancelled, nothing is left to control.
  const controllable = controls && (scheduled || running || paused);
  const percent = Math.floor(shareOf(progress) * 100);
  // The topics' names, for a segment that names some.
  const topics = useResource(issue.segment?.topics.length ? read("subscribers.topics") : null);
  const topicNames = new Map(topics.data?.items.map((topic) => [topic.id, topic.name]));

  const act = (
    change: "newsletter.unschedule" | "newsletter.pause" | "newsletter.resume",
    said: string,
  ) =>
    action.attempt(
      async () => {
        const changed = await api.call(change, { params: { id: issue.id } });
        onChanged(changed);
        return changed;
      },
      () => said,
    );

  return (
    <section className="panel progress-panel" aria-labelledby="progress-title">
      <h2 id="progress-title">The send</h2>
      <p className="progress-summary" aria-live="polite">
        {summaryOf(issue)}
      </p>

      {scheduled ? null : (
        <div className="progress-bar">
          <label htmlFor={barId}>Progress</label>
          <progress
            id={barId}
            max={1}
            // Without a value the bar is indeterminate: while queuing, the total is not known yet.
            value={status === "queuing" || starting ? undefined : shareOf(progress)}
          />
          <span className="progress-bar__percent" aria-hidden="true">
            {status === "queuing" || starting ? "…" : `${percent} %`}
          </span>
        </div>
      )}

      {scheduled ? null : (
        <dl className="progress-counts">
          <Count term="Recipients">{count(progress.recipients)}</Count>
          <Count term="Queued">{count(progress.queued)}</Count>
          <Count term="Sent">{count(progress.sent)}</Count>
          <Count term="Failed">{count(progress.failed)}</Count>
          <Count term="Withdrawn">{count(progress.withdrawn)}</Count>
        </dl>
      )}

      <dl className="progress-times">
        <Count term="To">{capitalised(segmentLabel(issue.segment, topicNames))}</Count>
        <Count term="Rate">
          {progress.rate === null ? "—" : `${count(progress.rate)} messages a second`}
        </Count>
        {progress.scheduledAt ? (
          <Count term="Scheduled for">
            <Moment iso={progress.scheduledAt} />
          </Count>
        ) : null}
        <Count term="Started">
          {progress.startedAt ? <Moment iso={progress.startedAt} /> : "Not yet"}
        </Count>
        <Count term="Finished">
          {progress.finishedAt ? <Moment iso={progress.finishedAt} /> : "Not yet"}
        </Count>
      </dl>

      {status === "sent" ? (
        <p>
          <a
            className="button button-primary"
            href={insightIssuePath(issue.slug)}
            target="_blank"
            rel="noreferrer"
          >
            Read it on the site<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}

      {controllable ? (
        <div className="progress-actions">
          {scheduled ? (
            <button
              type="button"
              className="button"
              onClick={() => act("newsletter.unschedule", "Unscheduled: it is a draft again.")}
            >
              Unschedule
            </button>
          ) : null}
          {/* One button for both, so the focus stays on it from Pause to Resume and back. */}
          {running || paused ? (
            <button
              type="button"
              className={paused ? "button button-primary" : "button"}
              onClick={() =>
                paused
                  ? act("newsletter.resume", "Resumed.")
                  : act("newsletter.pause", "Paused. Nothing more goes out until you resume.")
              }
            >
              {paused ? "Resume" : "Pause"}
            </button>
          ) : null}
          {running || paused ? (
            <button
              type="button"
              className="button button-quiet progress-actions__cancel"
              onClick={() => setConfirmingCancel(true)}
            >
              Cancel the send…
            </button>
          ) : null}
        </div>
      ) : null}
      {action.notice}

      <ConfirmDialog
        open={confirmingCancel}
        title="Cancel this send?"
        confirmLabel="Cancel the send"
        dismissLabel="Keep sending"
        onClose={() => setConfirmingCancel(false)}
        onConfirm={async () => {
          onChanged(await api.call("newsletter.cancel", { params: { id: issue.id } }));
          setConfirmingCancel(false);
        }}
      >
        <p className="confirm-dialog-target">{issue.title}</p>
        <p>
          The messages not sent yet ({count(progress.queued)} now) are withdrawn; the{" "}
          {count(progress.sent)} already sent cannot be called back.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function Count({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
