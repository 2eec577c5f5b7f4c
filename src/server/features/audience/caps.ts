/**
 * The per-day caps on a dimension's values, kept in the database so that
 * every instance, and every restart, counts against the same room (ADR
 * 058). A day's row in audience_value_caps says how many values of one
 * dimension it has let in and how many it may. A value takes room only
 * through an update whose condition finds that room, one statement that
 * each engine runs whole (PostgreSQL locks the row and checks the condition
 * again on the row as the other instance left it; SQLite writes one
 * statement at a time), so no two instances let in more than the cap
 * between them. A value already in the day's rows takes no room.
 */
import type { Kysely } from "kysely";
import { OTHER_VALUE } from "../../../shared/admin/audience.ts";
import type { AudienceDimension, Database } from "../../platform/db/schema.ts";

type Db = Kysely<Database>;

/** Values named in one statement: well under either engine's limit on parameters. */
const VALUES_PER_STATEMENT = 500;

export interface Admission {
  /** The candidates the day's rows may hold: already there, or given room now. */
  admitted: string[];
  /** Whether some candidate found no room: the day's list is final. */
  full: boolean;
}

function dayRow(db: Db, day: string, dimension: AudienceDimension) {
  return db
    .updateTable("audience_value_caps")
    .where("day", "=", day)
    .where("dimension", "=", dimension);
}

/** Takes room for `wanted` values if the day has that much left; whether it did. */
async function takeRoom(
  db: Db,
  day: string,
  dimension: AudienceDimension,
  wanted: number,
): Promise<boolean> {
  const result = await dayRow(db, day, dimension)
    .set((eb) => ({ admitted: eb("admitted", "+", wanted) }))
    .where((eb) => eb(eb("admitted", "+", wanted), "<=", eb.ref("max_values")))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Lets `candidates`, values of `dimension` on `day` that this process has
 * not yet seen let in, into the day's rows as far as there is room, in the
 * order given (the order they were first counted). The day's row is made
 * with `maxValues` by the first instance to ask; a later change of the
 * setting holds from the next day.
 */
export async function admitValues(
  db: Db,
  day: string,
  dimension: AudienceDimension,
  candidates: readonly string[],
  maxValues: number,
): Promise<Admission> {
  await db
    .insertInto("audience_value_caps")
    .values({ day, dimension, max_values: maxValues })
    .onConflict((conflict) => conflict.columns(["day", "dimension"]).doNothing())
    .execute();
  const present = new Set<string>();
  for (let start = 0; start < candidates.length; start += VALUES_PER_STATEMENT) {
    const rows = await db
      .selectFrom("audience_days")
      .select("value")
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("value", "in", candidates.slice(start, start + VALUES_PER_STATEMENT))
      .execute();
    for (const row of rows) present.add(row.value);
  }
  const fresh = candidates.filter((value) => !present.has(value));
  let granted = fresh.length;
  // Each failed take means the room left is less than asked: ask for what is left.
  while (granted > 0 && !(await takeRoom(db, day, dimension, granted))) {
    const row = await db
      .selectFrom("audience_value_caps")
      .select(["admitted", "max_values"])
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .executeTakeFirstOrThrow();
    granted = Math.min(granted, Math.max(0, Number(row.max_values) - Number(row.admitted)));
  }
  return { admitted: [...present, ...fresh.slice(0, granted)], full: granted < fresh.length };
}

/** Every value `dimension` let in on `day`, as its rows hold them: the day's whole list once full. */
export async function admittedValues(
  db: Db,
  day: string,
  dimension: AudienceDimension,
): Promise<string[]> {
  const rows = await db
    .selectFrom("audience_days")
    .select("value")
    .where("day", "=", day)
    .where("dimension", "=", dimension)
    .where("value", "!=", OTHER_VALUE)
    .execute();
  return rows.map((row) => row.value);
}

/** Records that `dimension` counted values as OTHER_VALUE on `day`, for the Audience area to say. */
export async function markOverflowed(
  db: Db,
  day: string,
  dimension: AudienceDimension,
  maxValues: number,
): Promise<void> {
  await db
    .insertInto("audience_value_caps")
    .values({ day, dimension, max_values: maxValues, overflowed: 1 })
    .onConflict((conflict) => conflict.columns(["day", "dimension"]).doUpdateSet({ overflowed: 1 }))
    .execute();
}
