/**
 * What came back about the mail sent: per issue, and over the last 30 days,
 * copies delivered against hard and soft bounces and complaints, as shares
 * of the delivered ones (the figure mailbox providers judge a sender by).
 */
import type { Kysely } from "kysely";
import type { DeliveryFigures } from "../../../shared/admin/sending-health.ts";
import type { Database } from "../../platform/db/schema.ts";

/** The issues a page shows: the most recent sends. */
const RECENT_ISSUES = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

type Counts = Omit<DeliveryFigures, "hardBounceRate" | "complaintRate">;

function withRates(counts: Counts): DeliveryFigures {
  const share = (part: number) =>
    counts.delivered === 0 ? null : Math.round((10_000 * part) / counts.delivered) / 100;
  return {
    ...counts,
    hardBounceRate: share(counts.hardBounces),
    complaintRate: share(counts.complaints),
  };
}

type ReportScope = { issueId: number } | { since: string };

async function reportCounts(db: Kysely<Database>, scope: ReportScope) {
  let query = db
    .selectFrom("delivery_reports")
    .select((eb) => [
      eb.fn.countAll<string | number>().filterWhere("kind", "=", "hard").as("hard"),
      eb.fn.countAll<string | number>().filterWhere("kind", "=", "soft").as("soft"),
      eb.fn.countAll<string | number>().filterWhere("kind", "=", "complaint").as("complaints"),
    ]);
  query =
    "issueId" in scope
      ? query.where("issue_id", "=", scope.issueId)
      : query.where("received_at", ">=", scope.since);
  const row = await query.executeTakeFirstOrThrow();
  return {
    hardBounces: Number(row.hard),
    softBounces: Number(row.soft),
    complaints: Number(row.complaints),
  };
}

async function deliveredCount(db: Kysely<Database>, scope: ReportScope): Promise<number> {
  let query = db
    .selectFrom("outbox")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("status", "=", "sent");
  query =
    "issueId" in scope
      ? query.where("issue_id", "=", scope.issueId)
      : query.where("sent_at", ">=", scope.since);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

async function figures(db: Kysely<Database>, scope: ReportScope): Promise<DeliveryFigures> {
  const [delivered, reports] = await Promise.all([
    deliveredCount(db, scope),
    reportCounts(db, scope),
  ]);
  return withRates({ delivered, ...reports });
}

/** What came back about one issue's copies, as Sending health shows it. */
export function issueDeliveryFigures(db: Kysely<Database>, issueId: number) {
  return figures(db, { issueId });
}

export async function lastThirtyDays(db: Kysely<Database>, now = new Date()) {
  const since = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const [period, suppressed] = await Promise.all([
    figures(db, { since }),
    db
      .selectFrom("suppressions")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("created_at", ">=", since)
      .executeTakeFirstOrThrow(),
  ]);
  return { ...period, suppressed: Number(suppressed.count) };
}

export async function recentIssues(db: Kysely<Database>) {
  const issues = await db
    .selectFrom("issues")
    .select(["id", "title", "finished_at"])
    .where("started_at", "is not", null)
    .orderBy("started_at", "desc")
    .limit(RECENT_ISSUES)
    .execute();
  return Promise.all(
    issues.map(async (issue) => ({
      id: issue.id,
      title: issue.title,
      finishedAt: issue.finished_at,
      ...(await issueDeliveryFigures(db, issue.id)),
    })),
  );
}
