import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  await db.schema.alterTable("issues").addColumn("paused_reason", "text").execute();
  await db.schema
    .alterTable("issues")
    .addColumn("guard_since", types.timestamp as "text")
    .execute();
}
