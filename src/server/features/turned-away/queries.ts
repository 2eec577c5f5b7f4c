/**
 * The table of turned-away posts (ADR 036): a post a trap took for a
 * script's, kept as it came with why and when, for TURNED_AWAY_RETENTION_DAYS.
 */
import type { Kysely, Selectable } from "kysely";
import { TURNED_AWAY_PAGE_SIZE, type TurnedAwayPost } from "../../../shared/admin/turned-away.ts";
import type { DefendedForm } from "../../../shared/bot-defence.ts";
import { cleanLeadSource, type LeadSource } from "../../../shared/lead-source.ts";
import type { Database, TurnedAwayTable } from "../../platform/db/schema.ts";
import type { Trap } from "../../platform/security/bot-defence.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A post to keep: its form, the trap it tripped, the way it came and its
 * validated fields, with the visit's source among them when it brought one.
 */
export interface PostToKeep {
  form: DefendedForm;
  trap: Trap;
  via: string;
  fields: Readonly<Record<string, string | LeadSource | undefined>>;
}

export async function keepPost(
  db: Kysely<Database>,
  { form, trap, via, fields }: PostToKeep,
  at: Date,
): Promise<void> {
  await db
    .insertInto("turned_away")
    .values({
      form,
      reason: trap.reason,
      seconds: trap.seconds,
      via,
      fields: JSON.stringify(fields),
      received_at: at.toISOString(),
    })
    .execute();
}

function selectPosts(db: Kysely<Database>) {
  return db
    .selectFrom("turned_away")
    .selectAll()
    .orderBy("received_at", "desc")
    .orderBy("id", "desc");
}

function viewOf(row: Selectable<TurnedAwayTable>): TurnedAwayPost {
  const { source, ...given } = JSON.parse(row.fields) as Record<string, unknown>;
  const fields = Object.fromEntries(
    Object.entries(given).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  const kept = cleanLeadSource(source);
  return {
    id: row.id,
    // The table holds only the forms and reasons the traps write (shared/bot-defence.ts).
    form: row.form as TurnedAwayPost["form"],
    reason: row.reason as TurnedAwayPost["reason"],
    seconds: row.seconds,
    via: row.via,
    fields,
    ...(kept ? { source: kept } : {}),
    receivedAt: row.received_at,
  };
}

/**
 * One page of the kept posts, newest first, and how many are kept in all: a
 * script can fill the traps with thousands in a day. The order ends on the
 * id, so each post has one place in it; one that arrives while someone
 * pages goes first and moves the rest down, so a post may show again at the
 * top of the next page, and none is skipped.
 */
export async function listPosts(
  db: Kysely<Database>,
  page: number,
): Promise<{ posts: TurnedAwayPost[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectPosts(db)
      .limit(TURNED_AWAY_PAGE_SIZE)
      .offset((page - 1) * TURNED_AWAY_PAGE_SIZE)
      .execute(),
    db
      .selectFrom("turned_away")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { posts: rows.map(viewOf), total: Number(count.n) };
}

/**
 * Deletes a kept post and answers what it held, or undefined when it is
 * gone: of two simultaneous releases only one takes it.
 */
export async function takePost(
  db: Kysely<Database>,
  id: number,
): Promise<TurnedAwayPost | undefined> {
  const row = await db
    .deleteFrom("turned_away")
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && viewOf(row);
}

/** Deletes the posts kept longer than `keptDays` at `now`; how many. */
export async function purgePosts(
  db: Kysely<Database>,
  keptDays: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - keptDays * DAY_MS).toISOString();
  const result = await db
    .deleteFrom("turned_away")
    .where("received_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
