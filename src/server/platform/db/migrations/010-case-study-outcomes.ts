import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // The one result a case study is remembered by, which Home shows:
  // a figure ("38%") and what it measures. Empty for a study without one.
  for (const column of ["outcome_figure", "outcome_label"]) {
    await db.schema
      .alterTable("case_studies")
      .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
      .execute();
  }
}
