/**
 * The outbox table: messages are queued in the same transaction as the row
 * they are about (`app.withOutbox`, platform/outbox/plugin.ts), then claimed, sent and
 * marked by a sender, transactional mail before bulk.
 */
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from "kysely";
import type { Engine } from "../db/connection.ts";
import { type Database, type MailPriority, nowIso } from "../db/schema.ts";
import { afterCommit, inTransaction } from "../db/transaction.ts";
import { MAIL_KINDS, type MailKind } from "./kinds.ts";
import {
  addressDomain,
  type MailMessage,
  type NewsletterRef,
  recipientAddress,
} from "./message.ts";

declare const inOutbox: unique symbol;

/**
 * A transaction opened by withOutbox. Mail can only be queued in one, so no
 * message is ever queued outside the write it is about, or left unannounced
 * to the sender.
 */
export type OutboxTransaction = Transaction<Database> & { readonly [inOutbox]: true };

/** The due time of a held message (a paused send's): never, until it is given a time again. */
export const HELD_UNTIL = "9999-12-31T00:00:00.000Z";

/** The order in which the sender serves the priorities: all due mail of one before any of the next. */
const PRIORITY_ORDER: readonly MailPriority[] = ["transactional", "bulk"];

/** Messages one claim takes: few, so a sender's lease and each query stay short. */
const CLAIM_BATCH_SIZE = 10;

/** Rows per INSERT, well under both engines' limit on bound parameters. */
const ROWS_PER_INSERT = 500;

/** The statuses the outbox's figures count: sent mail is not. */
const OUTBOX_COUNTED_STATUSES = ["pending", "failed"] as const;

interface Claimed {
  id: number;
  kind: string;
  attempts: number;
  /** The receiving domain a bulk message is paced by (domain-pacing.ts); absent for mail never held by it. */
  pacedDomain?: string;
}

/**
 * A claimed message: complete as queued, or a newsletter copy that names its
 * issue and subscription, composed when it is sent (features/newsletter/composer.ts).
 */
export type ClaimedMessage =
  | (Claimed & { newsletter: null; message: MailMessage })
  | (Claimed & { newsletter: NewsletterCopy; message: NewsletterRef });

/**
 * The lower-cased address in a message's `to` or `replyTo`, each an address
 * string or `{ name, address }` (platform/outbox/message.ts): for erasing a person's mail.
 */
export function mailAddress(engine: Engine, field: "to" | "replyTo") {
  return engine === "postgres"
    ? sql<string>`lower(coalesce(message::jsonb -> ${sql.lit(field)} ->> 'address', message::jsonb ->> ${sql.lit(field)}))`
    : sql<string>`lower(coalesce(json_extract(message, ${sql.lit(`$.${field}.address`)}), json_extract(message, ${sql.lit(`$.${field}`)})))`;
}

/**
 * A message's Message-ID, as the index outbox_message_id (migration 032)
 * holds it: a report that quotes it finds its row without reading the table.
 */
export function messageIdOf(engine: Engine) {
  return engine === "postgres"
    ? sql<string>`(message::jsonb ->> 'messageId')`
    : sql<string>`json_extract(message, '$.messageId')`;
}

export interface NewsletterCopy {
  issueId: number;
  subscriptionId: number;
}

export interface EnqueueOptions {
  /** Transactional unless said otherwise: only newsletters and the like are bulk. */
  priority?: MailPriority;
}

/** Queues one message; its outbox row's id, for a row that must name its mail. */
export async function enqueueMail(
  trx: OutboxTransaction,
  kind: MailKind,
  message: MailMessage,
  options: EnqueueOptions = {},
): Promise<number> {
  const [id] = await enqueueMails(trx, kind, [message], options);
  if (id === undefined) throw new Error("the outbox queued no row for the message");
  return id;
}

/** Queues many messages of one kind, a few hundred rows per statement; their rows' ids. */
export async function enqueueMails(
  trx: OutboxTransaction,
  kind: MailKind,
  messages: readonly MailMessage[],
  { priority = "transactional" }: EnqueueOptions = {},
): Promise<number[]> {
  const now = nowIso();
  const ids: number[] = [];
  for (let start = 0; start < messages.length; start += ROWS_PER_INSERT) {
    const rows = await trx
      .insertInto("outbox")
      .values(
        messages.slice(start, start + ROWS_PER_INSERT).map((message) => ({
          kind,
          priority,
          message: JSON.stringify(message),
          status: "pending" as const,
          domain: addressDomain(recipientAddress(message.to)),
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning("id")
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/**
 * Runs `work` in one transaction (the caller's, when `db` is one) in which it
 * may queue mail, then calls `wake` (the sender's wake-up) once the outermost
 * transaction has committed.
 */
export function inOutboxTransaction<T>(
  db: Kysely<Database>,
  work: (trx: OutboxTransaction) => Promise<T>,
  wake: () => void,
): Promise<T> {
  return inTransaction(db, (trx) => {
    afterCommit(trx, wake);
    return work(trx as OutboxTransaction);
  });
}

/**
 * A `withOutbox` whose work runs in `trx`, one already open: a write that
 * opens its own (storing an inquiry, ending a subscription) then joins a
 * larger one, and the sender wakes when that one commits.
 */
export function joinedOutbox(trx: OutboxTransaction) {
  return <T>(work: (joined: OutboxTransaction) => Promise<T>): Promise<T> => work(trx);
}

export interface ClaimOptions {
  priority: MailPriority;
  worker: string;
  leaseMs: number;
  now: Date;
}

/**
 * The statement that claims up to CLAIM_BATCH_SIZE due messages of one
 * priority for `worker` until the lease ends, first due first. The outbox_claim
 * index serves it exactly (status, priority, then due time), so the engine
 * reads only the rows it takes and the few leased to others. On PostgreSQL, a
 * row another sender is claiming at this moment is skipped (FOR UPDATE SKIP
 * LOCKED); SQLite has one writer at a time anyway.
 */
export function claimQuery(
  db: Kysely<Database>,
  engine: Engine,
  { priority, worker, leaseMs, now }: ClaimOptions,
) {
  const nowText = now.toISOString();
  let due = db
    .selectFrom("outbox")
    .select("id")
    .where("status", "=", "pending")
    .where("priority", "=", priority)
    .where("next_attempt_at", "<=", nowText)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowText)]))
    .$if(priority === "bulk", (query) => query.where(domainNotWaiting(engine, nowText)))
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(CLAIM_BATCH_SIZE);
  if (engine === "postgres") due = due.forUpdate().skipLocked();

  return db
    .updateTable("outbox")
    .set({
      locked_by: worker,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      // Counted when claimed, so a message that kills its sender cannot be retried forever.
      attempts: sql`attempts + 1`,
      updated_at: nowText,
    })
    .where("id", "in", due)
    .returning([
      "id",
      "kind",
      "attempts",
      "message",
      "issue_id",
      "subscription_id",
      "priority",
      "domain",
    ]);
}

/**
 * True for an outbox row whose receiving domain is not waiting (for its
 * next slot, or backing off) at `nowText`: a lookup by domain_pacing's
 * primary key for each due row the claim reads, so other domains' copies
 * go on while one waits. On PostgreSQL, OFFSET 0 keeps it a filter on the
 * index scan: pulled up into an anti-join, it would sit between the scan
 * and the row locks and the limit.
 */
function domainNotWaiting(engine: Engine, nowText: string) {
  return (eb: ExpressionBuilder<Database, "outbox">) => {
    const waiting = eb
      .selectFrom("domain_pacing")
      .select("domain_pacing.domain")
      .whereRef("domain_pacing.domain", "=", "outbox.domain")
      .where("domain_pacing.next_at", ">", nowText);
    return eb.not(eb.exists(engine === "postgres" ? waiting.offset(0) : waiting));
  };
}

/**
 * Claims a batch from the most urgent priority that has due mail, in the
 * order the messages were queued; empty when nothing is due.
 */
export async function claimBatch(
  db: Kysely<Database>,
  engine: Engine,
  worker: string,
  leaseMs: number,
): Promise<ClaimedMessage[]> {
  for (const priority of PRIORITY_ORDER) {
    const rows = await claimQuery(db, engine, {
      priority,
      worker,
      leaseMs,
      now: new Date(),
    }).execute();
    if (rows.length > 0) return rows.sort((a, b) => a.id - b.id).map(claimedMessage);
  }
  return [];
}

function claimedMessage(row: {
  id: number;
  kind: string;
  attempts: number;
  message: string;
  issue_id: number | null;
  subscription_id: number | null;
  priority: MailPriority;
  domain: string | null;
}): ClaimedMessage {
  const claimed: Claimed = { id: row.id, kind: row.kind, attempts: row.attempts };
  if (row.priority === "bulk" && row.domain !== null) claimed.pacedDomain = row.domain;
  if (row.issue_id !== null && row.subscription_id !== null) {
    const newsletter = { issueId: row.issue_id, subscriptionId: row.subscription_id };
    return { ...claimed, newsletter, message: JSON.parse(row.message) as NewsletterRef };
  }
  return { ...claimed, newsletter: null, message: JSON.parse(row.message) as MailMessage };
}

/**
 * When the sender should look again: the earliest due time of a message no
 * live claim holds and no waiting domain holds back, or the end of the
 * first domain's wait; undefined when nothing is pending. Each priority's
 * is read off the outbox_claim index, the domains' off domain_pacing_next_at.
 */
export async function nextDueTime(
  db: Kysely<Database>,
  engine: Engine,
  now = new Date(),
): Promise<number | undefined> {
  const nowText = now.toISOString();
  const times = await Promise.all([
    ...PRIORITY_ORDER.map((priority) =>
      db
        .selectFrom("outbox")
        .select("next_attempt_at as at")
        .where("status", "=", "pending")
        .where("priority", "=", priority)
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowText)]))
        .$if(priority === "bulk", (query) => query.where(domainNotWaiting(engine, nowText)))
        .orderBy("next_attempt_at")
        .limit(1)
        .executeTakeFirst(),
    ),
    db
      .selectFrom("domain_pacing")
      .select("next_at as at")
      .where("next_at", ">", nowText)
      .orderBy("next_at")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const due = times.flatMap((row) => (row ? [new Date(row.at).getTime()] : []));
  return due.length > 0 ? Math.min(...due) : undefined;
}

/** Gives back a claimed message to wait, due at `until`, its attempt uncounted (a paused issue's). */
export async function holdClaim(db: Kysely<Database>, id: number, worker: string, until: string) {
  await db
    .updateTable("outbox")
    .set({
      next_attempt_at: until,
      locked_until: null,
      attempts: sql`attempts - 1`,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("locked_by", "=", worker)
    .where("status", "=", "pending")
    .execute();
}

/** Withdraws a claimed message that must not be sent (its issue cancelled, its address gone). */
export async function dropClaim(db: Kysely<Database>, id: number, worker: string) {
  await db
    .deleteFrom("outbox")
    .where("id", "=", id)
    .where("locked_by", "=", worker)
    .where("status", "=", "pending")
    .execute();
}

/** Gives back claimed messages that were not tried: free for the next claim, the attempt uncounted. */
export async function releaseClaims(db: Kysely<Database>, ids: number[], worker: string) {
  if (ids.length === 0) return;
  await db
    .updateTable("outbox")
    .set({ locked_until: null, attempts: sql`attempts - 1`, updated_at: nowIso() })
    .where("id", "in", ids)
    .where("locked_by", "=", worker)
    .where("status", "=", "pending")
    .execute();
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

/**
 * Messages waiting or given up on, by kind: read on the outbox_claim index
 * (status first). Sent rows are kept for the record and are not counted: they
 * only grow, and counting them would read the whole table at every scrape.
 * Every kind of mail has both counts, 0 before its first message, so a rise
 * is seen from the first one.
 */
export async function outboxDepth(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("outbox")
    .select(["kind", "status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("status", "in", OUTBOX_COUNTED_STATUSES)
    .groupBy(["kind", "status"])
    .execute();
  const counted = new Map(rows.map(({ kind, status, count }) => [`${status} ${kind}`, count]));
  // Kinds no longer queued keep their rows, and their counts, until they are gone.
  const kinds = new Set<string>([...MAIL_KINDS, ...rows.map((row) => row.kind)]);
  return [...kinds].flatMap((kind) =>
    OUTBOX_COUNTED_STATUSES.map((status) => ({
      kind,
      status,
      count: Number(counted.get(`${status} ${kind}`) ?? 0),
    })),
  );
}

/**
 * How long the oldest message still to be sent has waited, in seconds (0 with
 * none). A paused send's held copies wait for a person, not for the sender,
 * and are left out.
 */
export async function oldestPendingAgeSeconds(db: Kysely<Database>, now: Date): Promise<number> {
  const { oldest } = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.min("created_at").as("oldest"))
    .where("status", "=", "pending")
    .where("next_attempt_at", "<", HELD_UNTIL)
    .executeTakeFirstOrThrow();
  if (oldest === null) return 0;
  return Math.max(0, (now.getTime() - Date.parse(String(oldest))) / 1000);
}
