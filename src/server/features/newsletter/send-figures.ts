/**
 * The progress of each send under way, for the operator's figures: the
 * issues queuing, sending or paused (the issues_status index), and their
 * copies by state (the outbox_issue_status index).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/** The states a send is under way in (a paused one waits for a person). */
const UNDER_WAY = ["queuing", "sending", "paused"] as const;

export interface SendFigure {
  issueId: number;
  issueStatus: string;
  /** total: copies queued so far; the others: those copies by outcome. */
  state: "total" | "sent" | "failed" | "pending";
  count: number;
}

export async function sendFigures(db: Kysely<Database>): Promise<SendFigure[]> {
  const issues = await db
    .selectFrom("issues")
    .select(["id", "status", "recipients"])
    .where("status", "in", UNDER_WAY)
    .execute();
  if (issues.length === 0) return [];
  const counts = await db
    .selectFrom("outbox")
    .select(["issue_id", "status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where(
      "issue_id",
      "in",
      issues.map((issue) => issue.id),
    )
    .groupBy(["issue_id", "status"])
    .execute();
  return issues.flatMap((issue) => {
    const count = (status: string) =>
      Number(counts.find((row) => row.issue_id === issue.id && row.status === status)?.count ?? 0);
    const figure = (state: SendFigure["state"], value: number): SendFigure => ({
      issueId: issue.id,
      issueStatus: issue.status,
      state,
      count: value,
    });
    return [
      figure("total", issue.recipients),
      figure("sent", count("sent")),
      figure("failed", count("failed")),
      figure("pending", count("pending")),
    ];
  });
}
