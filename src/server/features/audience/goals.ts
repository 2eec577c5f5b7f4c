/**
 * The Audience area's goals: the inquiry and the subscription, built in,
 * and the pages the firm names. A page goal is kept as its path; what it
 * was reached by is read from the page rollups, the visits that viewed it
 * (each once), so it needs no counting of its own and counts back to the
 * first day kept.
 */
import type { Kysely } from "kysely";
import {
  GOALS_MAX,
  type Goal,
  type GoalFigures,
  type Period,
} from "../../../shared/admin/audience.ts";
import { insertBelowLimit } from "../../platform/db/capped-insert.ts";
import type { Database } from "../../platform/db/schema.ts";
import { count, rateOf } from "./figures.ts";

type Db = Kysely<Database>;

export async function listGoals(db: Db): Promise<Goal[]> {
  return db.selectFrom("audience_goals").select(["id", "path"]).orderBy("id").execute();
}

/** Adds a page goal: the goal, "taken" when the page is one already, or "full" at GOALS_MAX. */
export async function addGoal(db: Db, path: string): Promise<Goal | "taken" | "full"> {
  const id = await insertBelowLimit(
    db,
    { table: "audience_goals", column: "path" },
    path,
    GOALS_MAX,
  );
  return typeof id === "number" ? { id, path } : id;
}

export async function removeGoal(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom("audience_goals").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Each goal over the period, built-in first, then the pages in the order they were added. */
export async function goalFigures(
  db: Db,
  period: Period,
): Promise<{ visits: number; goals: GoalFigures[] }> {
  const inPeriod = db
    .selectFrom("audience_days")
    .where("day", ">=", period.from)
    .where("day", "<=", period.to);
  const [totals, goals, pageRows] = await Promise.all([
    inPeriod
      .select((eb) => [
        eb.fn.sum<number | string | null>("visits").as("visits"),
        eb.fn.sum<number | string | null>("inquiries").as("inquiries"),
        eb.fn.sum<number | string | null>("subscriptions").as("subscriptions"),
      ])
      .where("dimension", "=", "total")
      .executeTakeFirst(),
    listGoals(db),
    // One pass over the period's page rows, as the page breakdown makes.
    inPeriod
      .select((eb) => ["value", eb.fn.sum<number | string | null>("visits").as("visits")])
      .where("dimension", "=", "page")
      .where("value", "in", db.selectFrom("audience_goals").select("path"))
      .groupBy("value")
      .execute(),
  ]);
  const visitsTo = new Map(pageRows.map((row) => [row.value, count(row.visits)]));
  const visits = count(totals?.visits);
  const builtIn = (kind: "inquiry" | "subscription", reached: number): GoalFigures => ({
    id: null,
    kind,
    path: null,
    reached,
    rate: rateOf(reached, visits),
  });
  return {
    visits,
    goals: [
      builtIn("inquiry", count(totals?.inquiries)),
      builtIn("subscription", count(totals?.subscriptions)),
      ...goals.map(({ id, path }): GoalFigures => {
        const pageVisits = visitsTo.get(path) ?? 0;
        return { id, kind: "page", path, reached: pageVisits, rate: rateOf(pageVisits, visits) };
      }),
    ],
  };
}
