/**
 * What the send panel says of a send, in one line a screen reader hears as
 * it changes, and whether it is starting: scheduled for a moment already
 * come, by "Send now" or a time the sender has not reached yet.
 */
import type { IssueDetail, IssueProgress } from "../../../shared/admin/newsletter.ts";
import { formatMoment } from "../content/format.ts";

export const count = (n: number) => n.toLocaleString("en-GB");

/** Delivered, given up or withdrawn: every message that will not be sent any more. */
const doneOf = (progress: IssueProgress) => progress.sent + progress.failed + progress.withdrawn;

/** The share done, from 0 to 1; a finished send is whole, even with nobody to send to. */
export function shareOf(progress: IssueProgress): number {
  if (progress.status === "sent") return 1;
  return progress.recipients > 0 ? Math.min(1, doneOf(progress) / progress.recipients) : 0;
}

/**
 * Scheduled for a moment that has come: "Send now" schedules the send for
 * the moment it was pressed, which is also the issue's last change (the
 * server's clock, so a browser's wrong clock cannot say otherwise), and a
 * schedule whose time has passed waits only for the sender's next round.
 */
export function isStarting(
  issue: Pick<IssueDetail, "progress" | "updatedAt">,
  now = Date.now(),
): boolean {
  const { status, scheduledAt } = issue.progress;
  if (status !== "scheduled" || scheduledAt === null) return false;
  const due = Date.parse(scheduledAt);
  return due <= Date.parse(issue.updatedAt) || due <= now;
}

export function summaryOf(issue: Pick<IssueDetail, "progress" | "updatedAt">, now = Date.now()) {
  const { progress } = issue;
  const { status, recipients, sent, failed, withdrawn, scheduledAt } = progress;
  const percent = Math.floor(shareOf(progress) * 100);
  const done = `${count(doneOf(progress))} of ${count(recipients)} done (${percent} %)`;
  const tally = `${count(sent)} sent, ${count(failed)} failed, ${count(withdrawn)} withdrawn`;
  switch (status) {
    case "scheduled":
      if (isStarting(issue, now)) return "Starting: the first messages go out in a moment.";
      return scheduledAt
        ? `Scheduled for ${formatMoment(scheduledAt)}. Nothing goes out before then.`
        : "Scheduled.";
    case "queuing":
      return `Queuing a message for each active subscriber: ${count(recipients)} so far, ${count(sent)} sent.`;
    case "sending":
      return `Sending: ${done}. ${tally}.`;
    case "paused":
      return progress.pausedReason
        ? `Paused by the send guard at ${done}: ${progress.pausedReason} Nothing more goes out until it is resumed.`
        : `Paused at ${done}. Nothing more goes out until it is resumed.`;
    case "sent":
      return `Sent: 100 %. ${tally}.`;
    case "cancelled":
      return `Cancelled at ${done}. ${tally}.`;
    default:
      return "Not sent yet.";
  }
}
