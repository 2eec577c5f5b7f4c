import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // A post a trap took for a script's, kept as it came so the firm can
  // release it should a person have sent it; the daily purge removes it
  // after TURNED_AWAY_RETENTION_DAYS (features/turned-away).
  await types
    .withId(db.schema.createTable("turned_away"))
    .addColumn("form", "text", notNull)
    .addColumn("reason", "text", notNull)
    .addColumn("seconds", "real", notNull)
    .addColumn("via", "text", notNull)
    .addColumn("fields", "text", notNull)
    .addColumn("received_at", types.timestamp as "text", notNull)
    .execute();
  await db.schema
    .createIndex("turned_away_received")
    .on("turned_away")
    .column("received_at")
    .execute();
}
