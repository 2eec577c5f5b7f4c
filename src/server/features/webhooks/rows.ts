/** The endpoints' rows and the delivery log, as the console reads and writes them. */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type {
  DeliveryAnswer,
  DeliveryView,
  WebhookEventType,
  WebhookSave,
  WebhookView,
} from "../../../shared/admin/webhooks.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";

/** How many deliveries the log shows, newest first. */
export const LOG_LENGTH = 50;

/** A signing secret as Standard Webhooks writes one: whsec_ and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

type EndpointRow = {
  id: number;
  name: string;
  url: string;
  events: string;
  format: "slack" | "json";
  enabled: boolean | number;
  created_at: string;
  updated_at: string;
};

const VIEW_COLUMNS = [
  "id",
  "name",
  "url",
  "events",
  "format",
  "enabled",
  "created_at",
  "updated_at",
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

async function recentCounts(db: Kysely<Database>, since: Date) {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(["endpoint_id", "status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("created_at", ">=", since.toISOString())
    .groupBy(["endpoint_id", "status"])
    .execute();
  const counts = new Map<number, WebhookView["recent"]>();
  for (const row of rows) {
    const each = counts.get(row.endpoint_id) ?? { pending: 0, delivered: 0, failed: 0 };
    each[row.status] = Number(row.count);
    counts.set(row.endpoint_id, each);
  }
  return counts;
}

function view(row: EndpointRow, recent?: WebhookView["recent"]): WebhookView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    format: row.format,
    enabled: Boolean(row.enabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    recent: recent ?? { pending: 0, delivered: 0, failed: 0 },
  };
}

export async function listEndpoints(db: Kysely<Database>, now: Date): Promise<WebhookView[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select(VIEW_COLUMNS)
    .orderBy("id")
    .execute();
  const counts = await recentCounts(db, new Date(now.getTime() - DAY_MS));
  return rows.map((row) => view(row, counts.get(row.id)));
}

export async function findEndpoint(
  db: Kysely<Database>,
  id: number,
  now = new Date(),
): Promise<WebhookView | undefined> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select(VIEW_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const counts = await recentCounts(db, new Date(now.getTime() - DAY_MS));
  return view(row, counts.get(id));
}

export async function countEndpoints(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

type Saved = Omit<WebhookSave, "events"> & { events: readonly WebhookEventType[] };

export async function insertEndpoint(db: Kysely<Database>, values: Saved, secret: string) {
  const now = nowIso();
  const { id } = await db
    .insertInto("webhook_endpoints")
    .values({
      name: values.name,
      url: values.url,
      events: JSON.stringify(values.events),
      format: values.format,
      enabled: values.enabled ? 1 : 0,
      secret,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateEndpoint(
  db: Kysely<Database>,
  id: number,
  values: Saved,
): Promise<boolean> {
  const result = await db
    .updateTable("webhook_endpoints")
    .set({
      name: values.name,
      url: values.url,
      events: JSON.stringify(values.events),
      format: values.format,
      enabled: values.enabled ? 1 : 0,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteEndpoint(db: Kysely<Database>, id: number): Promise<boolean> {
  await db.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
  const result = await db.deleteFrom("webhook_endpoints").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function endpointSecret(db: Kysely<Database>, id: number) {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select(["secret", "name"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row;
}

export async function setSecret(db: Kysely<Database>, id: number, secret: string) {
  const result = await db
    .updateTable("webhook_endpoints")
    .set({ secret, updated_at: nowIso() })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

type DeliveryRow = {
  id: number;
  event: string;
  webhook_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  created_at: string;
  next_attempt_at: string;
  delivered_at: string | null;
  answers: string;
};

const DELIVERY_COLUMNS = [
  "id",
  "event",
  "webhook_id",
  "status",
  "attempts",
  "created_at",
  "next_attempt_at",
  "delivered_at",
  "answers",
] as const;

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event: row.event,
    webhookId: row.webhook_id,
    state: row.status,
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
    answers: JSON.parse(row.answers) as DeliveryAnswer[],
  };
}

export async function deliveryLog(db: Kysely<Database>, endpointId: number) {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(DELIVERY_COLUMNS)
    .where("endpoint_id", "=", endpointId)
    .orderBy("id", "desc")
    .limit(LOG_LENGTH)
    .execute();
  return rows.map(deliveryView);
}

export async function findDelivery(db: Kysely<Database>, id: number) {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select(DELIVERY_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return deliveryView(row);
}
