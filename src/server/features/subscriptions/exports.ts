/**
 * The active subscribers for the firm's mail tool, oldest first (npm run
 * subscribers:export): confirmed ones only, as for Insight's own sends.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import { onlyActive } from "./statuses.ts";

export async function activeSubscribers(db: Kysely<Database>) {
  const rows = await onlyActive(db.selectFrom("subscriptions").select(["email", "subscribed_at"]))
    .orderBy("subscribed_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ email: row.email, subscribed_at: row.subscribed_at }));
}
