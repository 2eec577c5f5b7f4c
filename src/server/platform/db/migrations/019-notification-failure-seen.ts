import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // When someone in the console first opened an inquiry whose
  // notification had failed: until then the console keeps a banner up.
  await db.schema
    .alterTable("inquiries")
    .addColumn("notification_failure_seen_at", types.timestamp as "text")
    .execute();
}
