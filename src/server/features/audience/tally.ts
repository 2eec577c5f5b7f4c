/**
 * The counts waiting to be written: added to in memory on each counted view,
 * and taken whole by each flush, which adds them to the day's rows with one
 * upsert per row. A flush that fails puts what it took back, so the next one
 * writes it; only a process that dies loses what it held (at most one flush
 * interval of counting, ADR 051).
 */
import type { Kysely } from "kysely";
import type { AudienceDimension, Database } from "../../platform/db/schema.ts";

export interface Counts {
  views: number;
  visits: number;
  visitors: number;
}

export interface TallyRow extends Counts {
  day: string;
  dimension: AudienceDimension;
  value: string;
}

/** Rows per statement: 6 values each stays well under SQLite's variable limit. */
const ROWS_PER_STATEMENT = 500;

const SEPARATOR = "\u0000";

/**
 * The most values of one dimension one process counts in a day (referring
 * domains, UTM tags, entry pages…); further ones are counted as OTHER_VALUE.
 * Links with made-up tags would otherwise add rows without end.
 */
export const MAX_VALUES_PER_DAY = 2000;
export const OTHER_VALUE = "(other)";

export class Tally {
  private counts = new Map<string, Counts>();
  /** The values each (day, dimension) has counted in this process. */
  private values = new Map<string, Set<string>>();

  constructor(private readonly maxValues = MAX_VALUES_PER_DAY) {}

  add(day: string, dimension: AudienceDimension, value: string, counts: Counts): void {
    this.addAt(this.slot(day, dimension, value), counts.views, counts.visits, counts.visitors);
  }

  /**
   * Where a row's counts go: its day, dimension and value (OTHER_VALUE once
   * the dimension has its fill of values that day). A slot stays good for
   * its day, across takes, so a visit works its rows' out once.
   */
  slot(day: string, dimension: AudienceDimension, value: string): string {
    return `${day}${SEPARATOR}${dimension}${SEPARATOR}${this.admit(day, dimension, value)}`;
  }

  addAt(slot: string, views: number, visits: number, visitors: number): void {
    const kept = this.counts.get(slot);
    if (kept) {
      kept.views += views;
      kept.visits += visits;
      kept.visitors += visitors;
    } else {
      this.counts.set(slot, { views, visits, visitors });
    }
  }

  private admit(day: string, dimension: AudienceDimension, value: string): string {
    const key = `${day}${SEPARATOR}${dimension}`;
    let seen = this.values.get(key);
    if (!seen) {
      seen = new Set();
      this.values.set(key, seen);
    }
    if (seen.has(value)) return value;
    if (seen.size >= this.maxValues) return OTHER_VALUE;
    seen.add(value);
    return value;
  }

  /** Forgets the values counted on days before `today`. */
  forgetBefore(today: string): void {
    for (const key of this.values.keys()) {
      if (key.slice(0, key.indexOf(SEPARATOR)) < today) this.values.delete(key);
    }
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
    for (const { day, dimension, value, ...counts } of rows)
      this.add(day, dimension, value, counts);
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
        conflict.columns(["day", "dimension", "value"]).doUpdateSet((eb) => ({
          views: eb(eb.ref("audience_days.views"), "+", eb.ref("excluded.views")),
          visits: eb(eb.ref("audience_days.visits"), "+", eb.ref("excluded.visits")),
          visitors: eb(eb.ref("audience_days.visitors"), "+", eb.ref("excluded.visitors")),
        })),
      )
      .execute();
  }
}
