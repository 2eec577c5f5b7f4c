/**
 * The daily purge (ADR 048): data past its keeping goes once a day, on one
 * instance however many share the database. Each part of the server adds
 * the purge of the data it owns with `app.dailyPurge.add` while it
 * registers; this plugin knows none of them.
 *
 * Every instance looks once it listens and then each hour; the first to
 * look on a new UTC day takes
 * the day with one statement (`claimDay`) and runs every purge, the others
 * find the day taken. An instance that stops in the middle leaves the rest
 * to the next day's run: each purge removes whatever is past its cut-off,
 * so a missed day is caught up, never lost.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { runPeriodically } from "./periodic.ts";

export interface Purge {
  /** What the log names, e.g. "audit log". */
  what: string;
  /** Removes what is past its keeping at `now`; how many rows it removed or emptied. */
  run(now: Date): Promise<number>;
}

declare module "fastify" {
  interface FastifyInstance {
    dailyPurge: {
      /** Adds a purge to the daily run; called while the server registers its parts. */
      add(purge: Purge): void;
      /** Runs every purge now if no instance has run them today; whether this one did. */
      runToday(): Promise<boolean>;
    };
  }
}

/** Its row in site_meta: the UTC day of the last run. */
const DAY_KEY = "daily_purge_day";

const LOOK_EVERY_MS = 60 * 60 * 1000;

/**
 * Takes `day` (YYYY-MM-DD) for this instance: true for the one statement
 * that writes it, false for every other, at once or later that day. The row
 * is made by the first claim ever, and moved forward only to a later day.
 */
export async function claimDay(db: Kysely<Database>, day: string, at: Date): Promise<boolean> {
  const row = await db
    .insertInto("site_meta")
    .values({
      key: DAY_KEY,
      value: day,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    })
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet({ value: day, updated_at: at.toISOString() })
        .where("site_meta.value", "<", day),
    )
    .returning("key")
    .executeTakeFirst();
  return row !== undefined;
}

export interface DailyPurgeOptions {
  database: DatabaseHandle;
  /** The clock the day and every cut-off are taken from (epoch ms); tests pass their own. */
  now?: () => number;
}

export default fp(
  async function dailyPurge(app: FastifyInstance, { database, now = Date.now }: DailyPurgeOptions) {
    const purges: Purge[] = [];
    const runToday = async () => {
      const at = new Date(now());
      if (!(await claimDay(database.db, at.toISOString().slice(0, 10), at))) return false;
      const removed: Record<string, number> = {};
      for (const purge of purges) {
        // One purge failing leaves the others to run; it is caught up tomorrow.
        try {
          removed[purge.what] = await purge.run(at);
        } catch (error) {
          app.log.error({ err: error }, `purging the ${purge.what} failed`);
        }
      }
      app.log.info({ removed }, "daily purge done");
      return true;
    };
    app.decorate("dailyPurge", { add: (purge: Purge) => void purges.push(purge), runToday });
    runPeriodically(app, {
      what: "daily purge",
      everyMs: LOOK_EVERY_MS,
      afterListening: true,
      run: runToday,
    });
  },
  { name: "daily-purge" },
);
