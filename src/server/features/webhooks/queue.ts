/**
 * The webhook deliveries table, kept as the outbox keeps mail: an event's
 * deliveries are queued in the transaction of the write that caused it (so
 * none is announced for a write that rolled back, and none is lost for one
 * that committed), then claimed with a lease by one worker of however many
 * instances, posted, and marked.
 */
import { randomUUID } from "node:crypto";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { AnyWebhookEventType } from "../../../shared/admin/webhooks.ts";
import type { Engine } from "../../platform/db/connection.ts";
import type {
  Database,
  WebhookDeliveriesTable,
  WebhookDeliveryStatus,
  WebhookEndpointsTable,
} from "../../platform/db/schema.ts";
import { afterCommit } from "../../platform/db/transaction.ts";
import type { OutboxTransaction } from "../../platform/outbox/queue.ts";

/**
 * The transaction a delivery is queued in: the write's own, opened by
 * `app.withOutbox` (the type only that gives), so an event can only be
 * announced inside the write it is about.
 */
export type WebhookTransaction = OutboxTransaction;

/** Something that happened, as every endpoint's body is made from it. */
export interface WebhookEvent {
  type: AnyWebhookEventType;
  /** The generic JSON body's `data`. */
  data: Record<string, unknown>;
  /** The Slack-compatible body's sentence. */
  text: string;
  /** The e-mail address of the person the event is about, whose erasure removes it. */
  address?: string;
}

/**
 * Deliveries one worker posts at once, never two to one endpoint: a
 * receiver that never answers holds one of them until its time-out, and the
 * others go on.
 */
export const DELIVERIES_IN_FLIGHT = 8;

/** How many of a delivery's answers its row keeps for the log. */
const ANSWERS_KEPT = 5;

export interface Endpoint {
  id: number;
  url: string;
  format: "slack" | "json";
  secret: string;
}

/** The body an endpoint is sent for an event, exactly as it is signed. */
export function bodyFor(format: "slack" | "json", event: WebhookEvent, at: Date): string {
  return format === "slack"
    ? JSON.stringify({ text: event.text })
    : JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
}

/** A Standard Webhooks message id: unique, and the same at every attempt. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

/** Queues one delivery of `event` to each endpoint; their ids. */
export async function queueDeliveries(
  trx: Kysely<Database>,
  endpoints: readonly Pick<Endpoint, "id" | "format">[],
  event: WebhookEvent,
  at: Date,
): Promise<number[]> {
  if (endpoints.length === 0) return [];
  const now = at.toISOString();
  const rows = await trx
    .insertInto("webhook_deliveries")
    .values(
      endpoints.map((endpoint) => ({
        endpoint_id: endpoint.id,
        event: event.type,
        webhook_id: newWebhookId(),
        payload: bodyFor(endpoint.format, event, at),
        address: event.address?.toLowerCase() ?? null,
        status: "pending" as const,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** The enabled endpoints that hear an event type. */
export async function listeningEndpoints(db: Kysely<Database>, type: string) {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "format", "events"])
    .where("enabled", "=", 1)
    .execute();
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type));
}

/**
 * Announces an event inside its write's transaction: a delivery for each
 * endpoint that hears it, and the worker woken once the write commits. The
 * queueing runs in a savepoint: should it fail, it is undone and logged,
 * and the write goes on — telling the firm's tools never costs the firm
 * the inquiry or the subscription itself.
 */
export async function announceIn(
  trx: WebhookTransaction,
  event: WebhookEvent,
  { at, wake, onFailure }: { at: Date; wake: () => void; onFailure: (error: unknown) => void },
): Promise<void> {
  await sql`savepoint outgoing_webhooks`.execute(trx);
  try {
    const endpoints = await listeningEndpoints(trx, event.type);
    const queued = await queueDeliveries(trx, endpoints, event, at);
    await sql`release savepoint outgoing_webhooks`.execute(trx);
    if (queued.length > 0) afterCommit(trx, wake);
  } catch (error) {
    await sql`rollback to savepoint outgoing_webhooks`.execute(trx);
    await sql`release savepoint outgoing_webhooks`.execute(trx);
    onFailure(error);
  }
}

export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  event: string;
  webhookId: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  answers: string;
}

/** A delivery no live claim holds: never claimed, or its lease has ended. */
const unleased = (nowText: string) => (eb: ExpressionBuilder<{ d: WebhookDeliveriesTable }, "d">) =>
  eb.or([eb("d.locked_until", "is", null), eb("d.locked_until", "<", nowText)]);

/** The endpoints but those in `busy`. */
function endpointsBut(db: Kysely<Database>, busy: readonly number[]) {
  return db
    .selectFrom("webhook_endpoints as e")
    .$if(busy.length > 0, (endpoints) => endpoints.where("e.id", "not in", busy));
}

/**
 * The first pending delivery of endpoint `e` that no live claim holds, first
 * due first: read one endpoint at a time on the endpoint's own index
 * (webhook_deliveries_endpoint_due), so a receiver's backlog is never walked
 * to reach another receiver's delivery.
 */
function firstPendingOf(
  eb: ExpressionBuilder<Database & { e: WebhookEndpointsTable }, "e">,
  nowText: string,
) {
  return eb
    .selectFrom("webhook_deliveries as d")
    .whereRef("d.endpoint_id", "=", "e.id")
    .where("d.status", "=", "pending")
    .where(unleased(nowText))
    .orderBy("d.next_attempt_at")
    .orderBy("d.id")
    .limit(1);
}

/**
 * Claims for `worker`, until the lease ends, up to `limit` due deliveries,
 * each to an endpoint of its own and none to the endpoints in `busy` (those
 * it is posting to already), first due first, counting the attempt as it
 * claims (a delivery that kills its worker cannot be tried forever). On
 * PostgreSQL a row another worker is claiming at this moment is skipped
 * (FOR UPDATE SKIP LOCKED); SQLite has one writer at a time. Either way one
 * UPDATE takes the rows, and its WHERE sees a row leased to another worker
 * as not due: no two workers hold one delivery at once.
 */
export async function claimDeliveries(
  db: Kysely<Database>,
  engine: Engine,
  worker: string,
  leaseMs: number,
  now: Date,
  { busy, limit }: { busy: readonly number[]; limit: number },
): Promise<ClaimedDelivery[]> {
  const nowText = now.toISOString();
  let due = db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where(
      "id",
      "in",
      endpointsBut(db, busy).select((eb) =>
        firstPendingOf(eb, nowText)
          .where("d.next_attempt_at", "<=", nowText)
          .select("d.id")
          .as("first"),
      ),
    )
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit);
  if (engine === "postgres") due = due.forUpdate().skipLocked();
  const claimed = await db
    .updateTable("webhook_deliveries")
    .set({
      locked_by: worker,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: sql`attempts + 1`,
      updated_at: nowText,
    })
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowText)]))
    .returning(["id"])
    .execute();
  if (claimed.length === 0) return [];
  const rows = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select([
      "d.id",
      "d.endpoint_id",
      "d.event",
      "d.webhook_id",
      "d.payload",
      "d.attempts",
      "d.answers",
      "e.url",
      "e.secret",
    ])
    .where(
      "d.id",
      "in",
      claimed.map((row) => row.id),
    )
    .where("d.locked_by", "=", worker)
    .orderBy("d.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    event: row.event,
    webhookId: row.webhook_id,
    payload: row.payload,
    attempts: row.attempts,
    url: row.url,
    secret: row.secret,
    answers: row.answers,
  }));
}

/** One attempt's answer, as kept on the row and shown in the log. */
export interface Answer {
  at: string;
  status: number | null;
  body: string;
  durationMs: number;
  error: string | null;
}

/**
 * Records an attempt: delivered, retried at `retryAt`, or given up when that
 * is null. Only the worker holding the claim may; its answer joins the
 * latest few.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  worker: string,
  answer: Answer,
  outcome: { delivered: true } | { delivered: false; retryAt: Date | null },
): Promise<void> {
  const earlier = JSON.parse(claimed.answers) as Answer[];
  const answers = JSON.stringify([answer, ...earlier].slice(0, ANSWERS_KEPT));
  const status: WebhookDeliveryStatus = outcome.delivered
    ? "delivered"
    : outcome.retryAt
      ? "pending"
      : "failed";
  await db
    .updateTable("webhook_deliveries")
    .set({
      status,
      answers,
      locked_by: null,
      locked_until: null,
      ...(outcome.delivered ? { delivered_at: answer.at } : {}),
      ...(!outcome.delivered && outcome.retryAt
        ? { next_attempt_at: outcome.retryAt.toISOString() }
        : {}),
      updated_at: answer.at,
    })
    .where("id", "=", claimed.id)
    .where("locked_by", "=", worker)
    .execute();
}

/** Gives back claimed deliveries that were not tried (the worker is stopping), the attempt uncounted. */
export async function releaseDeliveries(db: Kysely<Database>, ids: number[], worker: string) {
  if (ids.length === 0) return;
  await db
    .updateTable("webhook_deliveries")
    .set({ locked_by: null, locked_until: null, attempts: sql`attempts - 1` })
    .where("id", "in", ids)
    .where("locked_by", "=", worker)
    .where("status", "=", "pending")
    .execute();
}

/**
 * When the worker should look again: the earliest due time of a delivery no
 * live claim holds, to an endpoint not in `busy` (the worker looks again
 * when its delivery there is recorded).
 */
export async function nextDueTime(
  db: Kysely<Database>,
  now: Date,
  busy: readonly number[],
): Promise<number | undefined> {
  const nowText = now.toISOString();
  const rows = await endpointsBut(db, busy)
    .select((eb) => firstPendingOf(eb, nowText).select("d.next_attempt_at").as("first"))
    .execute();
  const times = rows.flatMap((row) => (row.first ? [new Date(row.first).getTime()] : []));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * Erasing a person as a subscriber or as an inquirer: every delivery of that
 * kind's events about their address, whatever its state; how many went.
 */
export async function forgetDeliveriesAbout(
  db: Kysely<Database>,
  email: string,
  as: "subscriber" | "inquiry",
): Promise<number> {
  const result = await db
    .deleteFrom("webhook_deliveries")
    .where("address", "=", email.toLowerCase())
    .where("event", "like", `${as}.%`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deliveries waiting or given up on, by status: read on the claim index
 * (status first). Delivered ones only grow and are not counted.
 */
export async function deliveryDepth(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("status", "in", ["pending", "failed"])
    .groupBy("status")
    .execute();
  return rows.map(({ status, count }) => ({ status, count: Number(count) }));
}

/** The daily purge: deliveries delivered or given up on before `before`; how many went. */
export async function purgeDeliveries(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("webhook_deliveries")
    .where("status", "in", ["delivered", "failed"])
    .where("created_at", "<", before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
