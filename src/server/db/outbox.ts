/**
 * The outbox table: messages are queued in the same transaction as the row
 * they are about (see mail/with-outbox.ts), then claimed, sent and marked by a
 * sender.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { MailMessage } from "../mail/message.ts";
import type { Engine } from "./connection.ts";
import { type Database, nowIso } from "./schema.ts";

declare const inOutbox: unique symbol;

/**
 * A transaction opened by withOutbox. Mail can only be queued in one, so no
 * message is ever queued outside the write it is about, or left unannounced
 * to the sender.
 */
export type OutboxTransaction = Transaction<Database> & { readonly [inOutbox]: true };

export interface ClaimedMessage {
  id: number;
  kind: string;
  attempts: number;
  message: MailMessage;
}

export async function enqueueMail(trx: OutboxTransaction, kind: string, message: MailMessage) {
  const now = nowIso();
  await trx
    .insertInto("outbox")
    .values({
      kind,
      message: JSON.stringify(message),
      status: "pending",
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Runs `work` in one transaction in which it may queue mail, then calls
 * `afterCommit` (the sender's wake-up) once the transaction has committed.
 */
export async function inOutboxTransaction<T>(
  db: Kysely<Database>,
  work: (trx: OutboxTransaction) => Promise<T>,
  afterCommit: () => void,
): Promise<T> {
  const result = await db.transaction().execute((trx) => work(trx as OutboxTransaction));
  afterCommit();
  return result;
}

/**
 * Claims the oldest due message for `worker` until the lease ends. One at a
 * time, so a lease never has to cover more than one delivery. On PostgreSQL,
 * a row another sender is claiming at this moment is skipped (FOR UPDATE SKIP
 * LOCKED); SQLite has one writer at a time anyway.
 */
export async function claimNext(
  db: Kysely<Database>,
  engine: Engine,
  worker: string,
  leaseMs: number,
): Promise<ClaimedMessage | undefined> {
  const now = new Date();
  const nowText = now.toISOString();
  let due = db
    .selectFrom("outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", nowText)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowText)]))
    .orderBy("id")
    .limit(1);
  if (engine === "postgres") due = due.forUpdate().skipLocked();

  const row = await db
    .updateTable("outbox")
    .set({
      locked_by: worker,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: sql`attempts + 1`,
      updated_at: nowText,
    })
    .where("id", "in", due)
    .returning(["id", "kind", "attempts", "message"])
    .executeTakeFirst();
  return row && { ...row, message: JSON.parse(row.message) as MailMessage };
}

export async function markSent(db: Kysely<Database>, id: number, worker: string) {
  const now = nowIso();
  await db
    .updateTable("outbox")
    .set({ status: "sent", sent_at: now, locked_until: null, last_error: null, updated_at: now })
    .where("id", "=", id)
    .where("locked_by", "=", worker)
    .execute();
}

/** Records a failed attempt: retried at `retryAt`, or given up when that is null. */
export async function markAttemptFailed(
  db: Kysely<Database>,
  id: number,
  worker: string,
  error: string,
  retryAt: Date | null,
) {
  const now = nowIso();
  await db
    .updateTable("outbox")
    .set({
      status: retryAt ? "pending" : "failed",
      next_attempt_at: (retryAt ?? new Date()).toISOString(),
      locked_until: null,
      last_error: error.slice(0, 2000),
      updated_at: now,
    })
    .where("id", "=", id)
    .where("locked_by", "=", worker)
    .execute();
}
