import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // The webhook worker claims each endpoint's first due delivery on
  // its own, so that one receiver's backlog or silence never holds
  // another's: this index reads it without walking the endpoint's
  // delivered history.
  await db.schema
    .createIndex("webhook_deliveries_endpoint_due")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "status", "next_attempt_at"])
    .execute();
}
