import type { ExpressionBuilder, Kysely } from "kysely";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { leadSourceColumns } from "../../platform/db/lead-source.ts";
import { type Database, nowIso, type SubscriptionEventsTable } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";

/** A subscription's source columns, as leadSourceColumns makes them. */
export type SourceColumns = ReturnType<typeof leadSourceColumns>;

export interface Subscription {
  id: number;
  email: string;
  /** ISO-8601; part of the unsubscribe token, so a new subscription gets a new token. */
  subscribedAt: string;
  unsubscribedAt: string | null;
}

/**
 * A subscription as stored, with whether its address is confirmed (ISO-8601)
 * or not yet (null), and the person's name where known (an issue's merge fields).
 */
export interface StoredSubscription extends Subscription {
  confirmedAt: string | null;
  firstName: string | null;
  lastName: string | null;
}

/**
 * The `via` of the consent history's line for a subscription that began when
 * its address was confirmed (double opt-in), and of a former subscriber's
 * request that lapsed unconfirmed (on the row only: nothing had begun).
 */
export const CONFIRMED_VIA = CONSENT_VIA.confirmation;
export const LAPSED_VIA = CONSENT_VIA.lapsed;

/** Adds a line to the consent history (subscription_events). */
async function recordConsent(
  db: Kysely<Database>,
  subscriptionId: number,
  event: SubscriptionEventsTable["event"],
  via: string,
  at: string,
  issueId: number | null = null,
): Promise<void> {
  await db
    .insertInto("subscription_events")
    .values({ subscription_id: subscriptionId, event, via, at, issue_id: issueId })
    .execute();
}

/** The ways out an e-mail's unsubscribe link gives: its page, and the mail program's one-click. */
const BY_ITS_LINK: readonly string[] = [CONSENT_VIA.link, CONSENT_VIA.oneClick];

/**
 * The issue an unsubscribe by its link is put down to: the newest sent to
 * the subscription. Every copy's link is the subscription's own, so which
 * copy it came from is not known; the newest is the one most often meant.
 */
async function newestIssueSent(db: Kysely<Database>, subscriptionId: number) {
  const row = await db
    .selectFrom("outbox")
    .select("issue_id")
    .where("subscription_id", "=", subscriptionId)
    .where("issue_id", "is not", null)
    .where("status", "=", "sent")
    .orderBy("sent_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.issue_id ?? null;
}

/**
 * With double opt-in (NEWSLETTER_DOUBLE_OPT_IN) a subscription waits for its
 * address to be confirmed (confirmSubscription), and one that has waited
 * since before `lapsedBefore` (ISO-8601) has lapsed: asking again starts it anew.
 */
export interface PendingConfirmation {
  lapsedBefore: string;
}

/**
 * Subscribes an address. The unique e-mail column decides the outcome in one
 * statement: a new address is inserted, an unsubscribed one (or one whose
 * subscription waits for a confirmation, or waited too long) is re-activated,
 * and an active one is left alone (null), so concurrent requests cannot both
 * win. Without `pending` the address counts as confirmed at once, and only
 * the winner adds its line to the consent history, in the same transaction,
 * so the history never claims a change that did not happen. With `pending`
 * it waits for its confirmation, and nothing has changed for the history
 * until then: an address that is waiting already is left alone (null; see
 * findPendingSubscription).
 */
export function subscribe(
  db: Kysely<Database>,
  email: string,
  via: string,
  pending?: PendingConfirmation,
  source?: SourceColumns,
): Promise<Subscription | null> {
  return inTransaction(db, (trx) =>
    subscribeIn(trx, email, via, pending, source ?? leadSourceColumns(undefined)),
  );
}

async function subscribeIn(
  db: Kysely<Database>,
  email: string,
  via: string,
  pending: PendingConfirmation | undefined,
  source: SourceColumns,
): Promise<Subscription | null> {
  const now = nowIso();
  const confirmedAt = pending ? null : now;
  const row = await db
    .insertInto("subscriptions")
    .values({
      email,
      subscribed_at: now,
      subscribed_via: via,
      confirmed_at: confirmedAt,
      ...source,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .column("email")
        .doUpdateSet({
          subscribed_at: now,
          subscribed_via: via,
          unsubscribed_at: null,
          unsubscribed_via: null,
          confirmed_at: confirmedAt,
          // Asked for here now: no longer the import's, nor its opt-in date.
          opted_in_at: null,
          // A subscription begun anew was brought by the new visit: its
          // source replaces the old one's, unknown parts included.
          ...source,
          updated_at: now,
        })
        .where((eb) => {
          const unconfirmed = eb("subscriptions.confirmed_at", "is", null);
          return eb.or([
            eb("subscriptions.unsubscribed_at", "is not", null),
            pending
              ? eb.and([unconfirmed, eb("subscriptions.subscribed_at", "<", pending.lapsedBefore)])
              : unconfirmed,
          ]);
        }),
    )
    .returning(["id", "email", "subscribed_at"])
    .executeTakeFirst();
  if (row && !pending) await recordConsent(db, row.id, "subscribed", via, now);
  return row
    ? { id: row.id, email: row.email, subscribedAt: row.subscribed_at, unsubscribedAt: null }
    : null;
}

/** The address's subscription if it is active and waits for its confirmation. */
export async function findPendingSubscription(
  db: Kysely<Database>,
  email: string,
): Promise<Subscription | undefined> {
  const row = await db
    .selectFrom("subscriptions")
    .select(["id", "email", "subscribed_at"])
    .where("email", "=", email)
    .where("unsubscribed_at", "is", null)
    .where("confirmed_at", "is", null)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      email: row.email,
      subscribedAt: row.subscribed_at,
      unsubscribedAt: null,
    }
  );
}

export async function findSubscription(
  db: Kysely<Database>,
  id: number,
): Promise<StoredSubscription | undefined> {
  const row = await db
    .selectFrom("subscriptions")
    .select([
      "id",
      "email",
      "subscribed_at",
      "unsubscribed_at",
      "confirmed_at",
      "first_name",
      "last_name",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      email: row.email,
      subscribedAt: row.subscribed_at,
      unsubscribedAt: row.unsubscribed_at ? row.unsubscribed_at : null,
      confirmedAt: row.confirmed_at ? row.confirmed_at : null,
      firstName: row.first_name,
      lastName: row.last_name,
    }
  );
}

/**
 * Confirms a subscription that waits for it, and records in the consent
 * history that it began; false when it was confirmed already, has ended, or
 * was asked for anew since `subscription` was read (its subscribedAt no
 * longer matches). One UPDATE decides, so of simultaneous confirmations
 * exactly one returns true.
 */
export function confirmSubscription(
  db: Kysely<Database>,
  subscription: Subscription,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const result = await trx
      .updateTable("subscriptions")
      .set({ confirmed_at: now, updated_at: now })
      .where("id", "=", subscription.id)
      .where("subscribed_at", "=", subscription.subscribedAt)
      .where("confirmed_at", "is", null)
      .where("unsubscribed_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await recordConsent(trx, subscription.id, "subscribed", CONFIRMED_VIA, now);
    return true;
  });
}

export interface Purged {
  /** Addresses never confirmed, deleted. */
  deleted: number;
  /** Former subscribers whose new request lapsed: unsubscribed again, their history kept. */
  lapsed: number;
}

/**
 * Ends every subscription that waited for its confirmation since before
 * `lapsedBefore` (ISO-8601). An address with no consent history never was a
 * subscriber: its row goes (with any line, by the foreign key's cascade). A
 * former subscriber's row keeps its history and is unsubscribed again. Each
 * is one statement that re-checks its rows, so several instances may purge at
 * once, and an address asking anew meanwhile is kept.
 */
export function purgeUnconfirmed(db: Kysely<Database>, lapsedBefore: string): Promise<Purged> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const waitedTooLong = (eb: ExpressionBuilder<Database, "subscriptions">) =>
      eb.and([
        eb("confirmed_at", "is", null),
        eb("unsubscribed_at", "is", null),
        eb("subscribed_at", "<", lapsedBefore),
      ]);
    const hasHistory = (eb: ExpressionBuilder<Database, "subscriptions">) =>
      eb.exists(
        eb
          .selectFrom("subscription_events")
          .select("subscription_events.id")
          .whereRef("subscription_events.subscription_id", "=", "subscriptions.id"),
      );
    const deleted = await trx
      .deleteFrom("subscriptions")
      .where((eb) => eb.and([waitedTooLong(eb), eb.not(hasHistory(eb))]))
      .executeTakeFirst();
    const lapsed = await trx
      .updateTable("subscriptions")
      .set({ unsubscribed_at: now, unsubscribed_via: LAPSED_VIA, updated_at: now })
      .where((eb) => eb.and([waitedTooLong(eb), hasHistory(eb)]))
      .executeTakeFirst();
    return { deleted: Number(deleted.numDeletedRows), lapsed: Number(lapsed.numUpdatedRows) };
  });
}

/**
 * Ends an active subscription and records it in the consent history, put
 * down to an issue when it ended by the e-mails' link; false
 * when it had already ended (then nothing is recorded: of two simultaneous
 * requests, only the one whose update changed the row writes the event).
 */
export function unsubscribe(db: Kysely<Database>, id: number, via: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const result = await trx
      .updateTable("subscriptions")
      .set({ unsubscribed_at: now, unsubscribed_via: via, updated_at: now })
      .where("id", "=", id)
      .where("unsubscribed_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    const issueId = BY_ITS_LINK.includes(via) ? await newestIssueSent(trx, id) : null;
    await recordConsent(trx, id, "unsubscribed", via, now, issueId);
    return true;
  });
}
