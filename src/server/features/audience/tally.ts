/**
 * The counts waiting to be written: added to in memory on each counted view,
 * and taken whole by each flush, which adds them to the day's rows with one
 * upsert per row. A flush that fails puts what it took back, so the next one
 * writes it; only a process that dies loses what it held (at most one flush
 * interval of counting, ADR 051).
 *
 * Each dimension lets in at most AUDIENCE_VALUES_PER_DAY values a day
 * (referring domains, UTM tags, browsers…): links with made-up tags would
 * otherwise add rows without end. The room is kept in the database for
 * every instance (caps.ts, ADR 058); a value this process has not seen let
 * in is counted under its own name until the next flush asks the database,
 * and moved to OTHER_VALUE there if it found no room. No more values wait
 * here than the cap, so memory stays bounded between flushes too.
 */
import type { Kysely } from "kysely";
import { OTHER_VALUE } from "../../../shared/admin/audience.ts";
import type { AudienceDimension, Database } from "../../platform/db/schema.ts";
import { admittedValues, admitValues, markOverflowed } from "./caps.ts";

export interface Counts {
  views: number;
  visits: number;
  visitors: number;
  /** Visits that sent an inquiry or subscribed, each counted once (visits.ts). */
  conversions: number;
  inquiries: number;
  subscriptions: number;
}

/** The counts of what a visit led to, added to the rows its visit was counted in. */
export type Conversion = Pick<Counts, "conversions" | "inquiries" | "subscriptions">;

const COUNT_NAMES = [
  "views",
  "visits",
  "visitors",
  "conversions",
  "inquiries",
  "subscriptions",
] as const satisfies readonly (keyof Counts)[];

const NONE: Counts = {
  views: 0,
  visits: 0,
  visitors: 0,
  conversions: 0,
  inquiries: 0,
  subscriptions: 0,
};

/** Adds `more` to `counts`, in place. */
function addCounts(counts: Counts, more: Partial<Counts>): void {
  for (const name of COUNT_NAMES) counts[name] += more[name] ?? 0;
}

export interface TallyRow extends Counts {
  day: string;
  dimension: AudienceDimension;
  value: string;
}

/** Rows per statement: 9 values each stays well under SQLite's variable limit. */
const ROWS_PER_STATEMENT = 500;

const SEPARATOR = "\u0000";

/** What this process knows of one day's values of one dimension. */
interface DayValues {
  day: string;
  dimension: AudienceDimension;
  /** Values the database let in. */
  admitted: Set<string>;
  /** Values counted here since they were last asked about, not yet let in. */
  pending: Set<string>;
  /** The database has no room left: `admitted` is the day's whole list. */
  full: boolean;
  /** A value was counted as OTHER_VALUE for want of room; the database is told once. */
  overflowed: boolean;
  overflowRecorded: boolean;
}

export class Tally {
  private counts = new Map<string, Counts>();
  /** Each (day, dimension)'s values, by `day SEPARATOR dimension`. */
  private values = new Map<string, DayValues>();

  /** `maxValues`: AUDIENCE_VALUES_PER_DAY, for the day rows this process makes. */
  constructor(private readonly maxValues: number) {}

  add(day: string, dimension: AudienceDimension, value: string, counts: Partial<Counts>): void {
    this.addCountsAt(this.slot(day, dimension, value), counts);
  }

  /**
   * Where a row's counts go: its day, dimension and value (OTHER_VALUE once
   * the dimension has its fill of values that day). A slot stays good for
   * its day, across takes, so a visit works its rows' out once; a flush
   * moves the counts of a value the database then refused.
   */
  slot(day: string, dimension: AudienceDimension, value: string): string {
    const key = `${day}${SEPARATOR}${dimension}`;
    return `${key}${SEPARATOR}${this.admit(this.dayValues(key, day, dimension), value)}`;
  }

  /** A view's counts: the one path every counted view takes, so it builds no object but a new row's. */
  addAt(slot: string, views: number, visits: number, visitors: number): void {
    const kept = this.counts.get(slot);
    if (kept) {
      kept.views += views;
      kept.visits += visits;
      kept.visitors += visitors;
    } else {
      this.counts.set(slot, { ...NONE, views, visits, visitors });
    }
  }

  addCountsAt(slot: string, counts: Partial<Counts>): void {
    let kept = this.counts.get(slot);
    if (!kept) {
      kept = { ...NONE };
      this.counts.set(slot, kept);
    }
    addCounts(kept, counts);
  }

  private dayValues(key: string, day: string, dimension: AudienceDimension): DayValues {
    let values = this.values.get(key);
    if (!values) {
      values = {
        day,
        dimension,
        admitted: new Set(),
        pending: new Set(),
        full: false,
        overflowed: false,
        overflowRecorded: false,
      };
      this.values.set(key, values);
    }
    return values;
  }

  private admit(values: DayValues, value: string): string {
    // A value sent as OTHER_VALUE's own text is counted there, taking no room.
    if (value === OTHER_VALUE || values.admitted.has(value) || values.pending.has(value)) {
      return value;
    }
    // Past the cap here, the database could not let them all in either.
    if (values.full || values.admitted.size + values.pending.size >= this.maxValues) {
      values.overflowed = true;
      return OTHER_VALUE;
    }
    values.pending.add(value);
    return value;
  }

  /** Forgets the values counted on days before `today`. */
  forgetBefore(today: string): void {
    for (const [key, values] of this.values) if (values.day < today) this.values.delete(key);
  }

  get size(): number {
    return this.counts.size;
  }

  /** Everything counted since the last take, emptied here. */
  take(): TallyRow[] {
    const taken = this.counts;
    this.counts = new Map();
    return [...taken].map(([key, counts]) => {
      const [day = "", dimension = "total", value = ""] = key.split(SEPARATOR);
      return { day, dimension: dimension as AudienceDimension, value, ...counts };
    });
  }

  /** Rows a flush could not write, added back to be written by the next. */
  putBack(rows: TallyRow[]): void {
    for (const { day, dimension, value, ...counts } of rows) {
      this.addCountsAt(`${day}${SEPARATOR}${dimension}${SEPARATOR}${value}`, counts);
    }
  }

  /**
   * Writes everything counted since the last flush: asks the database to
   * let in the values it has not yet let in, moves those it refused to
   * OTHER_VALUE, adds the rows to audience_days, and records the days that
   * overflowed. Then forgets the days before `today`.
   */
  async flush(db: Kysely<Database>, today: string): Promise<void> {
    const rows = this.take();
    try {
      await this.askAbout(db, rows);
      const settled = this.settle(rows);
      for (const values of this.values.values()) {
        if (values.overflowed && !values.overflowRecorded) {
          await markOverflowed(db, values.day, values.dimension, this.maxValues);
          values.overflowRecorded = true;
        }
      }
      await addToDays(db, settled);
    } catch (error) {
      this.putBack(rows);
      throw error;
    }
    this.forgetBefore(today);
  }

  /** Asks the database about every value of `rows` this process has not seen let in. */
  private async askAbout(db: Kysely<Database>, rows: TallyRow[]): Promise<void> {
    const unknown = new Map<DayValues, Set<string>>();
    for (const { day, dimension, value } of rows) {
      const values = this.dayValues(`${day}${SEPARATOR}${dimension}`, day, dimension);
      if (value === OTHER_VALUE || values.admitted.has(value) || values.full) continue;
      let asked = unknown.get(values);
      if (!asked) {
        asked = new Set();
        unknown.set(values, asked);
      }
      asked.add(value);
    }
    for (const [values, asked] of unknown) {
      const { admitted, full } = await admitValues(
        db,
        values.day,
        values.dimension,
        [...asked],
        this.maxValues,
      );
      for (const value of admitted) values.admitted.add(value);
      for (const value of asked) values.pending.delete(value);
      if (full) {
        // The list is final: learn the values other instances let in too.
        for (const value of await admittedValues(db, values.day, values.dimension)) {
          values.admitted.add(value);
        }
        values.pending.clear();
        values.full = true;
      }
    }
  }

  /** `rows` with each value the database did not let in counted as OTHER_VALUE. */
  private settle(rows: TallyRow[]): TallyRow[] {
    const settled = new Map<string, TallyRow>();
    for (const row of rows) {
      const key = `${row.day}${SEPARATOR}${row.dimension}`;
      const values = this.values.get(key);
      let value = row.value;
      if (value !== OTHER_VALUE && !values?.admitted.has(value)) {
        value = OTHER_VALUE;
        if (values) values.overflowed = true;
      }
      const slot = `${key}${SEPARATOR}${value}`;
      const kept = settled.get(slot);
      if (kept) {
        addCounts(kept, row);
      } else {
        settled.set(slot, { ...row, value });
      }
    }
    return [...settled.values()];
  }
}

/**
 * Adds `rows` to the stored days: each row's counts are added to its
 * (day, dimension, value) row, made when missing. Several instances adding
 * at once each add their own; nothing is read first, so nothing is lost
 * between a read and a write.
 */
export async function addToDays(db: Kysely<Database>, rows: TallyRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await db
      .insertInto("audience_days")
      .values(chunk)
      .onConflict((conflict) =>
        conflict
          .columns(["day", "dimension", "value"])
          .doUpdateSet((eb) =>
            Object.fromEntries(
              COUNT_NAMES.map((name) => [
                name,
                eb(eb.ref(`audience_days.${name}`), "+", eb.ref(`excluded.${name}`)),
              ]),
            ),
          ),
      )
      .execute();
  }
}
