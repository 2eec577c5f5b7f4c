import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // Who an issue goes to, fixed when its send is asked for: null for every
  // active subscriber, else a segment of them by their tags, as JSON
  // ({"match":"any"|"all","tags":[…]}), read back through its schema.
  await db.schema.alterTable("issues").addColumn("segment", "text").execute();
}
