import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // The last TOTP step that opened the account: a code of that step or
  // an earlier one is refused, so a code seen once cannot be replayed.
  await db.schema.alterTable("users").addColumn("totp_last_step", "integer").execute();
}
