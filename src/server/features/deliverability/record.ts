/**
 * Records a report about a sent message and applies it to the suppression
 * list, in one transaction: a hard bounce or a complaint suppresses the
 * address at once; soft bounces only when enough of them arrive within the
 * configured days (a full mailbox empties, a server comes back).
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database, ReportKind, SuppressionReason } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import type { DeliverabilitySettings } from "./server-settings.ts";
import { isSuppressed } from "./suppressions.ts";

export interface NewReport {
  email: string;
  kind: ReportKind;
  status: string | null;
  source: string;
  /** Identifies the report at its source; a second report with the same key is not counted. */
  sourceKey: string | null;
  outboxId: number | null;
  messageKind: string | null;
  issueId: number | null;
  text: string;
}

export interface SoftBouncePolicy {
  /** Soft bounces that suppress an address … */
  limit: number;
  /** … when they arrive within this many days. */
  days: number;
}

/** The policy as configured (SOFT_BOUNCE_LIMIT within SOFT_BOUNCE_DAYS). */
export function softBouncePolicy(
  config: Pick<DeliverabilitySettings, "SOFT_BOUNCE_LIMIT" | "SOFT_BOUNCE_DAYS">,
): SoftBouncePolicy {
  return { limit: config.SOFT_BOUNCE_LIMIT, days: config.SOFT_BOUNCE_DAYS };
}

export interface Recorded {
  /** False when the same report was recorded before. */
  recorded: boolean;
  /** True when the address is now suppressed (by this report or before it). */
  suppressed: boolean;
}

const REPORT_TEXT_LIMIT = 4000;

const IMMEDIATE: Partial<Record<ReportKind, SuppressionReason>> = {
  hard: "hard-bounce",
  complaint: "complaint",
};

const DAY_MS = 24 * 60 * 60 * 1000;

export function recordReport(
  db: Kysely<Database>,
  report: NewReport,
  policy: SoftBouncePolicy,
  now: Date = new Date(),
): Promise<Recorded> {
  const email = report.email.trim().toLowerCase();
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto("delivery_reports")
      .values({
        email,
        kind: report.kind,
        status: report.status,
        source: report.source,
        source_key: report.sourceKey,
        outbox_id: report.outboxId,
        message_kind: report.messageKind,
        issue_id: report.issueId,
        text: report.text.slice(0, REPORT_TEXT_LIMIT),
        received_at: now.toISOString(),
      })
      .onConflict((c) => c.column("source_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return { recorded: false, suppressed: await isSuppressed(trx, email) };

    const reason = IMMEDIATE[report.kind] ?? (await softBouncesReason(trx, email, policy, now));
    if (reason) {
      await trx
        .insertInto("suppressions")
        .values({ email, reason, report_id: inserted.id, created_at: now.toISOString() })
        .onConflict((c) => c.column("email").doNothing())
        .execute();
    }
    return { recorded: true, suppressed: await isSuppressed(trx, email) };
  });
}

async function softBouncesReason(
  db: Kysely<Database>,
  email: string,
  { limit, days }: SoftBouncePolicy,
  now: Date,
): Promise<SuppressionReason | undefined> {
  const since = new Date(now.getTime() - days * DAY_MS).toISOString();
  const { count } = await db
    .selectFrom("delivery_reports")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("email", "=", email)
    .where("kind", "=", "soft")
    .where("received_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(count) >= limit ? "soft-bounces" : undefined;
}

/**
 * Removes the reports older than `retentionDays`, except the one each
 * suppression was decided by: the console shows it as the reason for as
 * long as the address stays on the list. Returns how many went.
 */
export async function purgeReports(
  db: Kysely<Database>,
  retentionDays: number,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const result = await db
    .deleteFrom("delivery_reports")
    .where("received_at", "<", cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("suppressions")
            .select("suppressions.id")
            .whereRef("suppressions.report_id", "=", "delivery_reports.id"),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Told when a hard bounce names a message of ours (a lead's notification may need an alarm). */
export type OnHardBounce = (outboxId: number, reason: string) => Promise<void>;

/**
 * Tells `onHardBounce` of a newly recorded hard bounce that names its
 * message; a failure there is logged, the report stays recorded.
 */
export async function tellOfHardBounce(
  report: Pick<NewReport, "kind" | "outboxId" | "text">,
  result: Recorded,
  onHardBounce: OnHardBounce | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!onHardBounce || !result.recorded || report.kind !== "hard" || report.outboxId === null) {
    return;
  }
  try {
    await onHardBounce(report.outboxId, report.text);
  } catch (error) {
    log.error({ err: error, outboxId: report.outboxId }, "a hard bounce could not be passed on");
  }
}

const REPORT_KINDS: readonly ReportKind[] = ["hard", "soft", "complaint"];

/**
 * The reports kept, by kind: all of them, so the figure only grows between
 * the daily purges (a rise is new reports). The table holds at most
 * REPORT_RETENTION_DAYS of reports, read through the delivery_reports_email
 * index, which holds the kind. Every kind has its count, 0 before its first
 * report, so a rise is seen from the first one.
 */
export async function reportsByKind(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("delivery_reports")
    .select(["kind", (eb) => eb.fn.countAll<number | string>().as("count")])
    .groupBy("kind")
    .execute();
  const counted = new Map(rows.map(({ kind, count }) => [kind, Number(count)]));
  return REPORT_KINDS.map((kind) => ({ kind, count: counted.get(kind) ?? 0 }));
}
