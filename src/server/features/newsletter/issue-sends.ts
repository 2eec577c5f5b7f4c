/**
 * An issue's send, as statements on the issues and outbox tables.
 *
 * - Queuing puts one bulk message per recipient (an active subscription
 *   whose address is not suppressed, in the issue's segment if it has one)
 *   in the outbox, a few hundred per
 *   transaction, each due one interval after the last (the rate), so the
 *   outbox's due-time claim paces the send on every
 *   instance at once. The unique index (issue_id, subscription_id) makes a
 *   second copy impossible, and the issue's cursor (the last subscription
 *   queued) moves in the same transaction, so a queuing cut off by a crash
 *   resumes where it stopped. A lease on the issue row lets one instance
 *   queue at a time.
 * - Pausing holds the messages not yet sent (due at HELD_UNTIL, never);
 *   resuming spaces them again from now; cancelling withdraws them.
 * See ADR 020.
 */
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { IssueStatus, Segment } from "../../../shared/admin/newsletter.ts";
import type { Engine } from "../../platform/db/connection.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { addressDomain } from "../../platform/outbox/message.ts";
import { HELD_UNTIL, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { onlyRecipients } from "../subscriptions/index.ts";
import { segmentOf } from "./issues.ts";

/** The due time of a held message: later than any real one, so no claim takes it. */

/** Subscriptions queued per transaction: short write locks, so the site stays responsive. */
export const QUEUE_BATCH_SIZE = 500;

/** The kind of a newsletter message in the outbox. */
export const NEWSLETTER_KIND = "newsletter";

const msInterval = (rate: number) => 1000 / rate;

/** An issue this instance now queues, until its lease ends. */
export interface QueuingIssue {
  id: number;
  rate: number;
  cursor: number;
  /** Who it goes to: null for every active subscriber. */
  segment: Segment | null;
  /** True when this claim began the send (the archive changed). */
  started: boolean;
}

/**
 * Takes an issue whose time has come, or whose queuing an instance left
 * unfinished (its lease ended), for `worker`. The outer WHERE repeats the
 * condition: on PostgreSQL a second instance waiting on the same row checks
 * it again after the first commits, and finds it taken.
 */
export async function claimIssueToQueue(
  db: Kysely<Database>,
  worker: string,
  leaseMs: number,
  now = new Date(),
): Promise<QueuingIssue | undefined> {
  const nowText = now.toISOString();
  const due = (eb: ExpressionBuilder<Database, "issues">) =>
    eb.or([
      eb.and([eb("status", "=", "scheduled"), eb("scheduled_at", "<=", nowText)]),
      eb.and([
        eb("status", "=", "queuing"),
        eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowText)]),
      ]),
    ]);
  const row = await db
    .updateTable("issues")
    .set({
      status: "queuing",
      started_at: sql<string>`coalesce(started_at, ${nowText})`,
      locked_by: worker,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      updated_at: nowText,
    })
    .where("id", "=", (eb) =>
      eb.selectFrom("issues").select("id").where(due).orderBy("id").limit(1),
    )
    .where(due)
    .returning(["id", "rate", "queue_cursor", "started_at", "segment"])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    rate: row.rate ?? 1,
    cursor: row.queue_cursor,
    segment: segmentOf(row.segment),
    started: new Date(row.started_at ?? 0).getTime() === now.getTime(),
  };
}

/**
 * When the next message of an issue may be due: after the last one queued
 * or resumed, and not before now. Read once per claim; the queuing loop
 * counts on from it.
 */
export async function nextSlot(db: Kysely<Database>, issueId: number, now = Date.now()) {
  const row = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.max("next_attempt_at").as("last"))
    .where("issue_id", "=", issueId)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<", HELD_UNTIL)
    .executeTakeFirst();
  const last = row?.last ? new Date(row.last).getTime() : 0;
  return Math.max(now, last);
}

export interface QueueBatch {
  issue: QueuingIssue;
  worker: string;
  leaseMs: number;
  /** The due time of the batch's first message, in ms; each next one an interval later. */
  firstSlot: number;
  /** Makes each message's Message-ID. */
  messageId: () => string;
  batchSize?: number;
}

export interface QueuedBatch {
  /** Messages inserted (a subscription already queued by another instance adds none). */
  inserted: number;
  cursor: number;
  /** The due time of the next batch's first message. */
  nextSlot: number;
  done: boolean;
}

/** Raised inside the batch's transaction when the lease was lost or the issue paused or cancelled. */
export class QueuingStopped extends Error {}

/**
 * Queues the next batch in `trx`: the subscriptions after the cursor, the
 * outbox rows, and the cursor, together. Throws QueuingStopped (rolling the
 * batch back) when the issue is no longer this worker's to queue.
 */
export async function queueBatch(
  trx: OutboxTransaction,
  { issue, worker, leaseMs, firstSlot, messageId, batchSize = QUEUE_BATCH_SIZE }: QueueBatch,
): Promise<QueuedBatch> {
  const subscriptions = await onlyRecipients(
    trx.selectFrom("subscriptions").select(["id", "email"]),
    issue.segment,
  )
    .where("id", ">", issue.cursor)
    .orderBy("id")
    .limit(batchSize)
    .execute();
  const interval = msInterval(issue.rate);
  const now = nowIso();
  const inserted =
    subscriptions.length === 0
      ? []
      : await trx
          .insertInto("outbox")
          .values(
            subscriptions.map(({ id, email }, index) => ({
              kind: NEWSLETTER_KIND,
              priority: "bulk" as const,
              message: JSON.stringify({ messageId: messageId() }),
              status: "pending" as const,
              // Each copy is paced by its receiving domain (platform/outbox/domain-pacing.ts).
              domain: addressDomain(email),
              next_attempt_at: new Date(firstSlot + index * interval).toISOString(),
              issue_id: issue.id,
              subscription_id: id,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((conflict) =>
            conflict
              .columns(["issue_id", "subscription_id"])
              .where("issue_id", "is not", null)
              .doNothing(),
          )
          .returning("id")
          .execute();
  const done = subscriptions.length < batchSize;
  const cursor = subscriptions.at(-1)?.id ?? issue.cursor;
  const moved = await trx
    .updateTable("issues")
    .set((eb) => ({
      queue_cursor: cursor,
      recipients: eb("recipients", "+", inserted.length),
      ...(done
        ? { status: "sending" as const, queued_all_at: now, locked_by: null, locked_until: null }
        : { locked_until: new Date(Date.now() + leaseMs).toISOString() }),
      updated_at: now,
    }))
    .where("id", "=", issue.id)
    .where("status", "=", "queuing")
    .where("locked_by", "=", worker)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) throw new QueuingStopped();
  return {
    inserted: inserted.length,
    cursor,
    nextSlot: firstSlot + subscriptions.length * interval,
    done,
  };
}

/** Lets another instance take a queuing this one stops (at shutdown) without waiting for the lease. */
export async function releaseIssue(db: Kysely<Database>, id: number, worker: string) {
  await db
    .updateTable("issues")
    .set({ locked_by: null, locked_until: null })
    .where("id", "=", id)
    .where("locked_by", "=", worker)
    .execute();
}

/** An issue whose send has just finished, as the firm's tools are told of it. */
export interface FinishedIssue {
  id: number;
  title: string;
  slug: string;
  recipients: number;
}

/** Marks sent every issue that has nothing left to send; those it marked. */
export async function finishSentIssues(db: Kysely<Database>): Promise<FinishedIssue[]> {
  const now = nowIso();
  return db
    .updateTable("issues")
    .set({ status: "sent", finished_at: now, updated_at: now })
    .where("status", "=", "sending")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("outbox")
            .select("outbox.id")
            .whereRef("outbox.issue_id", "=", "issues.id")
            .where("outbox.status", "=", "pending"),
        ),
      ),
    )
    .returning(["id", "title", "slug", "recipients"])
    .execute();
}

/**
 * Pauses a send: the issue first (its row lock orders this after a
 * queuing batch in flight), then its unsent messages are held.
 */
export function pauseSend(db: Kysely<Database>, id: number): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const paused = await trx
      .updateTable("issues")
      .set({ status: "paused", locked_by: null, locked_until: null, updated_at: now })
      .where("id", "=", id)
      .where("status", "in", ["queuing", "sending"])
      .executeTakeFirst();
    if (paused.numUpdatedRows === 0n) return false;
    await trx
      .updateTable("outbox")
      .set({ next_attempt_at: HELD_UNTIL, updated_at: now })
      .where("issue_id", "=", id)
      .where("status", "=", "pending")
      .execute();
    return true;
  });
}

/**
 * Resumes a paused send: queuing goes on where it stopped (a dispatcher takes
 * it), and the held messages are due again from now, one interval apart.
 */
export function resumeSend(
  db: Kysely<Database>,
  engine: Engine,
  id: number,
  now = Date.now(),
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const resumed = await trx
      .updateTable("issues")
      .set({
        status: sql<IssueStatus>`case when queued_all_at is null then 'queuing' else 'sending' end`,
        // Whoever resumes has looked: the guard judges the copies from now on.
        paused_reason: null,
        guard_since: new Date(now).toISOString(),
        updated_at: new Date(now).toISOString(),
      })
      .where("id", "=", id)
      .where("status", "=", "paused")
      .returning("rate")
      .executeTakeFirst();
    if (!resumed) return false;
    await respace(trx, engine, id, now, msInterval(resumed.rate ?? 1));
    return true;
  });
}

/** Gives an issue's unsent messages due times from `start`, one interval apart, in queue order. */
async function respace(
  db: Kysely<Database>,
  engine: Engine,
  issueId: number,
  start: number,
  interval: number,
): Promise<void> {
  const due =
    engine === "postgres"
      ? sql`to_timestamp((${start} + ranked.n * ${interval}) / 1000.0)`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + ranked.n * ${interval}) / 1000.0, 'unixepoch')`;
  await sql`
    update outbox set next_attempt_at = ${due}
    from (
      select id, row_number() over (order by id) - 1 as n
      from outbox where issue_id = ${issueId} and status = 'pending'
    ) as ranked
    where outbox.id = ranked.id`.execute(db);
}

/**
 * Cancels a send: the messages no sender holds are withdrawn at once; one a
 * sender holds is sent if its delivery had begun, otherwise dropped when
 * the sender sees the issue cancelled (features/newsletter/composer.ts).
 */
export function cancelSend(db: Kysely<Database>, id: number): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const cancelled = await trx
      .updateTable("issues")
      .set({
        status: "cancelled",
        finished_at: now,
        locked_by: null,
        locked_until: null,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("status", "in", ["queuing", "sending", "paused"])
      .executeTakeFirst();
    if (cancelled.numUpdatedRows === 0n) return false;
    await trx
      .deleteFrom("outbox")
      .where("issue_id", "=", id)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
      .execute();
    return true;
  });
}

export async function issueStatus(
  db: Kysely<Database>,
  id: number,
): Promise<IssueStatus | undefined> {
  const row = await db
    .selectFrom("issues")
    .select("status")
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.status;
}

/** The issue as frozen for sending, or undefined when the issue is gone or was never sent. */
export interface FrozenIssue {
  title: string;
  emailHtml: string;
  emailText: string;
  /** Copies a second, fixed when the send was asked for. */
  rate: number;
}

export async function frozenIssue(
  db: Kysely<Database>,
  id: number,
): Promise<FrozenIssue | undefined> {
  const row = await db
    .selectFrom("issues")
    .select(["title", "email_html", "email_text", "rate"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.email_html === null || row.email_text === null) return undefined;
  return {
    title: row.title,
    emailHtml: row.email_html,
    emailText: row.email_text,
    rate: row.rate ?? 1,
  };
}
