import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // The counts were kept under keys named otherwise; at most an hour's
  // locks are lost by starting them afresh.
  await db.deleteFrom("sign_in_throttle").execute();
  await db.schema.alterTable("sign_in_throttle").addColumn("account", "text").execute();
  await db.schema
    .createIndex("sign_in_throttle_account")
    .on("sign_in_throttle")
    .column("account")
    .execute();
}
