/**
 * The console's view of the newsletter list: finding, counting and exporting
 * subscribers, one subscriber's consent history, and erasure on request
 * (docs/privacy/erasure.md). Writes of consent itself live in subscriptions.ts.
 */
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";
import {
  CONSENT_VIA,
  fullName,
  GROWTH_MONTHS,
  type MonthGrowth,
  PAGE_SIZE,
  type SubscriberDetail,
  type SubscriberFilter,
  type SubscriberRow,
  type SubscriberStats,
} from "../../../shared/admin/subscribers.ts";
import { normalizeEmail } from "../../../shared/subscription.ts";
import type { DatabaseHandle, Engine } from "../../platform/db/connection.ts";
import {
  LEAD_SOURCE_COLUMNS,
  leadSourceCells,
  leadSourceOf,
} from "../../platform/db/lead-source.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { containsText } from "../../platform/db/text-search.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { mailAddress } from "../../platform/outbox/queue.ts";
import { forgetAddress, suppressedSubscription } from "../deliverability/index.ts";
import { forgetDeliveriesAbout } from "../webhooks/index.ts";
import { erasureHash } from "./erasure-hash.ts";
import { hasStatus, statusOf } from "./statuses.ts";
import { chosenTopics, topicsBySubscription } from "./topics.ts";

type SubscriptionQuery<O> = SelectQueryBuilder<Database, "subscriptions", O>;

/** The name the list searches: first and last, with a space between. */
const nameText = sql<string>`coalesce(first_name, '') || ' ' || coalesce(last_name, '')`;

/** Narrows a query on subscriptions to the filter: part of the address or the name, and the status. */
function filtered<O>(query: SubscriptionQuery<O>, { q, status }: SubscriberFilter) {
  let narrowed = query;
  if (q) {
    narrowed = narrowed.where((eb) =>
      eb.or([containsText(sql.ref("email"), q), containsText(nameText, q)]),
    );
  }
  if (status !== "all") narrowed = narrowed.where((eb) => hasStatus(eb, status));
  return narrowed;
}

const ROW_COLUMNS = [
  "id",
  "email",
  "subscribed_at",
  "subscribed_via",
  "unsubscribed_at",
  "unsubscribed_via",
  "confirmed_at",
  "opted_in_at",
  "first_name",
  "last_name",
] as const;

interface StoredRow {
  id: number;
  email: string;
  subscribed_at: string;
  subscribed_via: string;
  unsubscribed_at: string | null;
  confirmed_at: string | null;
  opted_in_at: string | null;
  first_name: string | null;
  last_name: string | null;
  suppressed: SqlBool;
}

/**
 * When the person subscribed, and when an import added them: an imported
 * address's subscription began at the opt-in date its former list kept,
 * and subscribed_at is the import's moment (schema.ts).
 */
function subscribedDates(row: { subscribed_at: string; opted_in_at: string | null }) {
  return row.opted_in_at === null
    ? { subscribedAt: row.subscribed_at, importedAt: null }
    : { subscribedAt: row.opted_in_at, importedAt: row.subscribed_at };
}

/** Whether the row's address is on the suppression list. */
function suppressed(eb: ExpressionBuilder<Database, "subscriptions">) {
  return suppressedSubscription(eb).as("suppressed");
}

function toRow(row: StoredRow): SubscriberRow {
  return {
    id: row.id,
    email: row.email,
    name: fullName(row.first_name, row.last_name),
    status: statusOf(row),
    ...subscribedDates(row),
    subscribedVia: row.subscribed_via,
    unsubscribedAt: row.unsubscribed_at,
    // SQLite answers 1 or 0, PostgreSQL true or false.
    suppressed: Boolean(row.suppressed),
  };
}

/**
 * Newest first by when the address joined this list: signed up (a returning
 * subscriber comes back to the top) or was imported; then newest row.
 */
function newestFirst<O>(query: SubscriptionQuery<O>) {
  return query.orderBy("subscribed_at", "desc").orderBy("id", "desc");
}

/** One page of the filtered list, and how many match in all. */
export async function listSubscribers(
  db: Kysely<Database>,
  filter: SubscriberFilter,
  page: number,
): Promise<{ items: SubscriberRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    newestFirst(
      filtered(db.selectFrom("subscriptions").select(ROW_COLUMNS).select(suppressed), filter),
    )
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
      .execute(),
    filtered(
      db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")),
      filter,
    ).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRow), total: Number(count.n) };
}

const byName = (one: string, other: string) => one.localeCompare(other, "en");

/** The tags of the subscriptions `ids` names (every one, when null), each's in their names' order. */
async function tagsBySubscription(
  db: Kysely<Database>,
  ids: readonly number[] | null,
): Promise<Map<number, string[]>> {
  let query = db.selectFrom("subscription_tags").select(["subscription_id", "tag"]);
  if (ids) query = query.where("subscription_id", "in", ids);
  const tags = new Map<number, string[]>();
  for (const row of await query.execute()) {
    const list = tags.get(row.subscription_id) ?? [];
    list.push(row.tag);
    tags.set(row.subscription_id, list);
  }
  // Sorted here, not by the database: the engines' collations order letter case apart.
  for (const list of tags.values()) list.sort(byName);
  return tags;
}

/** The fields a former list kept, as stored (a JSON object), in its order. */
export function fieldsOf(stored: string): { name: string; value: string }[] {
  const object: unknown = JSON.parse(stored);
  if (typeof object !== "object" || object === null) return [];
  return Object.entries(object).map(([name, value]) => ({ name, value: String(value) }));
}

/** Every row of the filter, for the CSV export. */
export async function exportSubscribers(db: Kysely<Database>, filter: SubscriberFilter) {
  const rows = await newestFirst(
    filtered(
      db
        .selectFrom("subscriptions")
        .select(ROW_COLUMNS)
        .select("fields")
        .select(suppressed)
        .select(LEAD_SOURCE_COLUMNS),
      filter,
    ),
  ).execute();
  const tags = await tagsBySubscription(db, null);
  const topics = await topicsBySubscription(db);
  return rows.map((row) => {
    const { subscribedAt, importedAt } = subscribedDates(row);
    return {
      address: row.email,
      first_name: row.first_name ?? "",
      last_name: row.last_name ?? "",
      // A tag may hold a comma, never a line break.
      tags: (tags.get(row.id) ?? []).join("\n"),
      topics: (topics.get(row.id) ?? []).join("\n"),
      // One column whatever each former list kept: its fields as they were stored.
      fields: row.fields === "{}" ? "" : row.fields,
      status: statusOf(row),
      subscribed_at: subscribedAt,
      imported_at: importedAt ?? "",
      via: row.subscribed_via,
      unsubscribed_at: row.unsubscribed_at ?? "",
      ...leadSourceCells(row),
    };
  });
}

/** "2025-03" for each of the last `count` calendar months (UTC), oldest first. */
export function monthKeys(now: Date, count = GROWTH_MONTHS): string[] {
  return Array.from({ length: count }, (_, index) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - index)));
    return month.toISOString().slice(0, 7);
  });
}

/**
 * An event's calendar month as "YYYY-MM" (UTC). SQLite keeps the ISO text
 * the app wrote; PostgreSQL a timestamptz, which to_char formats in UTC.
 */
function monthOf(engine: Engine, column: Expression<string>) {
  return engine === "postgres"
    ? sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM')`
    : sql<string>`substr(${column}, 1, 7)`;
}

/**
 * New subscriptions, imported addresses and unsubscriptions per month, from
 * the consent history: an address an import brought is counted in the
 * month of the import as imported, never as new.
 */
async function monthlyGrowth({ db, engine }: DatabaseHandle, now: Date): Promise<MonthGrowth[]> {
  const keys = monthKeys(now);
  const since = `${keys[0]}-01T00:00:00.000Z`;
  const rows = await db
    .selectFrom("subscription_events")
    .select((eb) => [
      monthOf(engine, eb.ref("at")).as("month"),
      eb
        .case()
        .when(eb.and([eb("event", "=", "subscribed"), eb("via", "=", CONSENT_VIA.import)]))
        .then(sql.lit("imported"))
        .else(eb.ref("event"))
        .end()
        .$castTo<keyof Omit<MonthGrowth, "month">>()
        .as("kind"),
      eb.fn.countAll<number | string>().as("n"),
    ])
    .where("at", ">=", since)
    .groupBy(["month", "kind"])
    .execute();
  const months = new Map(
    keys.map((month) => [month, { month, subscribed: 0, imported: 0, unsubscribed: 0 }]),
  );
  for (const row of rows) {
    const bucket = months.get(row.month);
    if (bucket) bucket[row.kind] = Number(row.n);
  }
  return [...months.values()];
}

/**
 * The counts by status (statuses.ts) and the growth chart's months.
 */
export async function subscriberStats(
  database: DatabaseHandle,
  now = new Date(),
): Promise<SubscriberStats> {
  const [counts, months] = await Promise.all([
    database.db
      .selectFrom("subscriptions")
      .select((eb) => [
        eb.fn
          .countAll<number | string>()
          .filterWhere((filter) => hasStatus(filter, "active"))
          .as("active"),
        eb.fn
          .countAll<number | string>()
          .filterWhere((filter) => hasStatus(filter, "awaiting"))
          .as("awaiting"),
        eb.fn
          .countAll<number | string>()
          .filterWhere((filter) => hasStatus(filter, "suppressed"))
          .as("suppressed"),
        eb.fn
          .countAll<number | string>()
          .filterWhere((filter) => hasStatus(filter, "unsubscribed"))
          .as("unsubscribed"),
      ])
      .executeTakeFirstOrThrow(),
    monthlyGrowth(database, now),
  ]);
  return {
    active: Number(counts.active),
    awaitingConfirmation: Number(counts.awaiting),
    suppressed: Number(counts.suppressed),
    unsubscribed: Number(counts.unsubscribed),
    months,
  };
}

/** One subscriber with their consent history, oldest first. */
export async function findSubscriber(
  db: Kysely<Database>,
  id: number,
): Promise<SubscriberDetail | undefined> {
  const row = await db
    .selectFrom("subscriptions")
    .select(ROW_COLUMNS)
    .select("fields")
    .select(LEAD_SOURCE_COLUMNS)
    .select(suppressed)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const events = await db
    .selectFrom("subscription_events")
    .select(["at", "event", "via", "consent_source", "consent_date"])
    .where("subscription_id", "=", id)
    .orderBy("at")
    .orderBy("id")
    .execute();
  const origin = await db
    .selectFrom("subscriptions")
    .innerJoin("subscriber_imports", "subscriber_imports.id", "subscriptions.import_id")
    .select([
      "subscriber_imports.id",
      "subscriber_imports.created_at",
      "subscriber_imports.file_name",
      "subscriber_imports.consent_source",
      "subscriber_imports.consent_date",
      "subscriber_imports.double_opt_in",
    ])
    .where("subscriptions.id", "=", id)
    .executeTakeFirst();
  const tags = await tagsBySubscription(db, [id]);
  return {
    ...toRow(row),
    firstName: row.first_name,
    lastName: row.last_name,
    tags: tags.get(id) ?? [],
    topics: await chosenTopics(db, id),
    fields: fieldsOf(row.fields),
    unsubscribedVia: row.unsubscribed_via,
    source: leadSourceOf(row),
    imported: origin
      ? {
          importId: origin.id,
          importedAt: origin.created_at,
          file: origin.file_name,
          consentSource: origin.consent_source,
          consentDate: origin.consent_date,
          doubleOptIn: Boolean(origin.double_opt_in),
        }
      : null,
    events: events.map(({ consent_source, consent_date, ...event }) => ({
      ...event,
      consentSource: consent_source,
      consentDate: consent_date,
    })),
  };
}

/**
 * Whether an address was erased on request. An import must skip such an
 * address; the website does not ask, since subscribing there is new consent.
 */
export async function isErased(
  db: Kysely<Database>,
  email: string,
  secret: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("erased_subscribers")
    .select("email_hash")
    .where("email_hash", "=", erasureHash(secret, email))
    .executeTakeFirst();
  return row !== undefined;
}

export interface Erasure {
  emailHash: string;
  /** How many queued or sent e-mails to the address were deleted. */
  mailDeleted: number;
}

/** The tables eraseSubscriber deletes from, whose deleted rows' bytes go afterwards (forgetErasedRows). */
export const SUBSCRIBER_ERASURE_TABLES = [
  "outbox",
  "subscriptions",
  "subscription_events",
  "subscription_tags",
  "suppressions",
  "delivery_reports",
  "set_aside_mail",
  "webhook_deliveries",
] as const;

/**
 * Erases a subscriber in one transaction: the e-mails addressed to them, the
 * subscription (its consent history and tags go with it, by the foreign
 * keys' cascade), and keeps only the salted hash. Undefined when there is no such
 * subscriber.
 */
export function eraseSubscriber(
  { db, engine }: DatabaseHandle,
  id: number,
  secret: string,
): Promise<Erasure | undefined> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("subscriptions")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const email = normalizeEmail(row.email);
    // Newsletter copies name their subscription; every other message, its address.
    const mail = await trx
      .deleteFrom("outbox")
      .where((eb) =>
        eb.or([eb(mailAddress(engine, "to"), "=", email), eb("subscription_id", "=", id)]),
      )
      .executeTakeFirst();
    await trx.deleteFrom("subscriptions").where("id", "=", id).execute();
    await forgetAddress(trx, email);
    await forgetDeliveriesAbout(trx, email, "subscriber");
    const emailHash = erasureHash(secret, email);
    await trx
      .insertInto("erased_subscribers")
      .values({ email_hash: emailHash, erased_at: nowIso() })
      .onConflict((conflict) => conflict.column("email_hash").doUpdateSet({ erased_at: nowIso() }))
      .execute();
    return { emailHash, mailDeleted: Number(mail.numDeletedRows) };
  });
}

/**
 * Writes a subscriber's name and tags as the console gave them, in the
 * caller's transaction; false when there is no such subscriber.
 */
export async function savePerson(
  trx: Kysely<Database>,
  id: number,
  person: {
    firstName: string;
    lastName: string;
    tags: string[];
    fields: { name: string; value: string }[];
  },
): Promise<boolean> {
  const updated = await trx
    .updateTable("subscriptions")
    .set({
      first_name: person.firstName || null,
      last_name: person.lastName || null,
      fields: JSON.stringify(Object.fromEntries(person.fields.map((f) => [f.name, f.value]))),
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return false;
  await trx.deleteFrom("subscription_tags").where("subscription_id", "=", id).execute();
  if (person.tags.length > 0) {
    await trx
      .insertInto("subscription_tags")
      .values(person.tags.map((tag) => ({ subscription_id: id, tag })))
      .execute();
  }
  return true;
}
