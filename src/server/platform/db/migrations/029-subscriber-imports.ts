import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // One row per list brought along: who imported which file when, the
  // consent statement they gave for every address in it, and what came
  // of it. It holds no address: erasing one leaves this row as it is.
  await types
    .withId(db.schema.createTable("subscriber_imports"))
    .addColumn("file_name", "text", notNull)
    .addColumn("format", "text", notNull)
    .addColumn("consent_source", "text", notNull)
    .addColumn("consent_date", "text", notNull)
    .addColumn("double_opt_in", "integer", notNull)
    .addColumn("rows_read", "integer", notNull)
    .addColumn("added", "integer", notNull)
    .addColumn("already_on_list", "integer", notNull)
    .addColumn("refused", "integer", notNull)
    .addColumn("imported_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", types.timestamp as "text", notNull)
    .execute();
  // The import an address came in by, while its row lasts.
  await db.schema
    .alterTable("subscriptions")
    .addColumn("import_id", "integer", (c) => c.references("subscriber_imports.id"))
    .execute();
  // A consent line of an import keeps the statement the importer gave
  // (where and when the person agreed), so the history answers alone.
  for (const column of ["consent_source", "consent_date"]) {
    await db.schema.alterTable("subscription_events").addColumn(column, "text").execute();
  }
  await db.schema
    .alterTable("subscription_events")
    .addColumn("import_id", "integer", (c) => c.references("subscriber_imports.id"))
    .execute();
}
