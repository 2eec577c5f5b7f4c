/**
 * The send panel's words right after "Send now": the send is starting, not
 * "scheduled … nothing goes out before then", whatever the browser's clock
 * says; a send scheduled for later still says when.
 */
import { describe, expect, it } from "vitest";
import type { IssueProgress } from "../../../shared/admin/newsletter.ts";
import { isStarting, summaryOf } from "./progress-summary.ts";

const MINUTE_MS = 60_000;
const PRESSED = Date.parse("2026-11-27T17:26:00.000Z");

function scheduledIssue(scheduledAt: number, updatedAt: number) {
  const progress: IssueProgress = {
    status: "scheduled",
    recipients: 0,
    queued: 0,
    sent: 0,
    failed: 0,
    withdrawn: 0,
    queuedAll: false,
    rate: 20,
    pausedReason: null,
    scheduledAt: new Date(scheduledAt).toISOString(),
    startedAt: null,
    finishedAt: null,
  };
  return { progress, updatedAt: new Date(updatedAt).toISOString() };
}

describe("the send panel's summary", () => {
  it("says a send is starting right after Send now, even with the browser's clock minutes behind", () => {
    const sendNow = scheduledIssue(PRESSED, PRESSED + 3);
    const browserBehind = PRESSED - 5 * MINUTE_MS;
    expect(isStarting(sendNow, browserBehind)).toBe(true);
    expect(summaryOf(sendNow, browserBehind)).toBe(
      "Starting: the first messages go out in a moment.",
    );
  });

  it("says a schedule whose time has come is starting", () => {
    const due = scheduledIssue(PRESSED, PRESSED - 60 * MINUTE_MS);
    expect(isStarting(due, PRESSED + 1000)).toBe(true);
  });

  it("says when a send scheduled for later goes out", () => {
    const later = scheduledIssue(PRESSED + 60 * MINUTE_MS, PRESSED);
    expect(isStarting(later, PRESSED)).toBe(false);
    expect(summaryOf(later, PRESSED)).toMatch(
      /^Scheduled for .+\. Nothing goes out before then\.$/,
    );
  });
});
