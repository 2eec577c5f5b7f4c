/** The rows the firm exports to its mail tool or CRM, oldest first. */
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

const iso = (value: Date | string) => new Date(value).toISOString();

export async function activeSubscribers(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("subscriptions")
    .select(["email", "subscribed_at"])
    .where("unsubscribed_at", "is", null)
    .orderBy("subscribed_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ email: row.email, subscribed_at: iso(row.subscribed_at) }));
}

export async function allInquiries(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("inquiries")
    .select([
      "id",
      "created_at",
      "first_name",
      "last_name",
      "company",
      "job_title",
      "email",
      "phone_number",
      "inquiry_type",
      "comments",
    ])
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, created_at: iso(row.created_at) }));
}
