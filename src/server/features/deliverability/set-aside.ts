/**
 * Mail from the bounce mailbox that was set aside, not acted on: an
 * unverified report (one that does not prove it is about a message the site
 * sent to the address it names) or a message that could not be read. Kept
 * so the owners see it on the Sending health page, with why; it suppresses
 * no one and counts toward nothing. The message itself stays in the mailbox.
 */
import type { Kysely } from "kysely";
import { SET_ASIDE_PAGE_SIZE, type SetAsideRow } from "../../../shared/admin/sending-health.ts";
import type { Database, ReportKind, SetAsideState } from "../../platform/db/schema.ts";

export interface NewSetAside {
  /** The message in its mailbox: one row per message, however many instances read it. */
  sourceKey: string;
  state: SetAsideState;
  email: string | null;
  kind: ReportKind | null;
  status: string | null;
  why: string;
  text: string;
}

const TEXT_LIMIT = 4000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Keeps one message set aside; false when it was kept before (another instance, a second read). */
export async function setAside(
  db: Kysely<Database>,
  entry: NewSetAside,
  now: Date = new Date(),
): Promise<boolean> {
  const inserted = await db
    .insertInto("set_aside_mail")
    .values({
      source_key: entry.sourceKey,
      state: entry.state,
      email: entry.email?.toLowerCase() ?? null,
      kind: entry.kind,
      status: entry.status,
      why: entry.why,
      text: entry.text.slice(0, TEXT_LIMIT),
      received_at: now.toISOString(),
    })
    .onConflict((c) => c.column("source_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** One page of what was set aside, newest first, and how many there are. */
export async function listSetAside(
  db: Kysely<Database>,
  page: number,
): Promise<{ items: SetAsideRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("set_aside_mail")
      .select(["id", "state", "email", "kind", "status", "why", "text", "received_at"])
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .limit(SET_ASIDE_PAGE_SIZE)
      .offset((page - 1) * SET_ASIDE_PAGE_SIZE)
      .execute(),
    db
      .selectFrom("set_aside_mail")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(({ received_at, ...row }) => ({ ...row, receivedAt: received_at })),
    total: Number(count.n),
  };
}

/** Removes what was set aside more than `retentionDays` ago (REPORT_RETENTION_DAYS); how many. */
export async function purgeSetAside(
  db: Kysely<Database>,
  retentionDays: number,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const result = await db
    .deleteFrom("set_aside_mail")
    .where("received_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
