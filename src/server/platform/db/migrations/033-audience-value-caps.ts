import { sql } from "kysely";
import { type AnyDb, notNull } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // How many values of one dimension a UTC day has let in, against the
  // most it may (AUDIENCE_VALUES_PER_DAY as it was when the day's row
  // was made), for every instance at once: a value is let in only by
  // an update that finds room, so no restart or second instance gets
  // more. `overflowed` is 1 once a value was counted as "(other)".
  await db.schema
    .createTable("audience_value_caps")
    .addColumn("day", "text", notNull)
    .addColumn("dimension", "text", notNull)
    .addColumn("max_values", "integer", (c) => c.notNull().check(sql`max_values > 0`))
    .addColumn("admitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("overflowed", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`overflowed in (0, 1)`),
    )
    .addPrimaryKeyConstraint("audience_value_caps_key", ["day", "dimension"])
    .addCheckConstraint(
      "audience_value_caps_admitted",
      sql`admitted >= 0 and admitted <= max_values`,
    )
    .execute();
  // The days counted before: each dimension's values as they stand,
  // under the 2,000 a process kept to then (more where restarts let
  // more in), and overflowed where "(other)" was counted.
  await sql`
    insert into audience_value_caps (day, dimension, max_values, admitted, overflowed)
    select day, dimension,
      case when count(case when value <> '(other)' then 1 end) > 2000
        then count(case when value <> '(other)' then 1 end) else 2000 end,
      count(case when value <> '(other)' then 1 end),
      max(case when value = '(other)' then 1 else 0 end)
    from audience_days
    group by day, dimension
  `.execute(db);
}
