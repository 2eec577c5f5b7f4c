/**
 * The active subscribers for the firm's mail tool, oldest first (npm run
 * subscribers:export): the addresses Insight's own sends go to, each with
 * the day it subscribed (an imported one's opt-in date, as its former list
 * kept it).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import { onlyActive } from "./statuses.ts";

export async function activeSubscribers(db: Kysely<Database>) {
  const rows = await onlyActive(
    db.selectFrom("subscriptions").select(["email", "subscribed_at", "opted_in_at"]),
  )
    .orderBy("subscribed_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    email: row.email,
    subscribed_at: row.opted_in_at ?? row.subscribed_at,
  }));
}
