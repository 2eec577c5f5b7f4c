import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("case_studies"))
        .addColumn("slug", "text", (c) => c.notNull().unique())
        .addColumn("position", "integer", notNull)
        .addColumn("title", "text", notNull)
        .addColumn("summary", "text", notNull)
        .addColumn("opportunity", "text", notNull)
        .addColumn("solution", "text", notNull)
        .addColumn("work", "text", notNull),
    )
    .execute();
}
