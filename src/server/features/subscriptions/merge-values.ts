/**
 * The subscribers' values of an issue's merge fields (shared/merge-fields.ts)
 * where the console needs them before any copy is sent: the people an
 * editor may preview an issue as, and the names of a test's addresses that
 * are on the list.
 */
import type { Kysely } from "kysely";
import type { PreviewReader } from "../../../shared/admin/newsletter.ts";
import type { MergeValues } from "../../../shared/merge-fields.ts";
import { normalizeEmail } from "../../../shared/subscription.ts";
import type { Database } from "../../platform/db/schema.ts";
import { onlyActive } from "./statuses.ts";

/** The newest active subscribers with a first name: whom an editor may preview an issue as. */
export async function namedReaders(db: Kysely<Database>, limit: number): Promise<PreviewReader[]> {
  const rows = await onlyActive(
    db.selectFrom("subscriptions").select(["id", "email", "first_name", "last_name"]),
  )
    .where("first_name", "is not", null)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
  }));
}

/** The names of the subscriptions of `emails`, by lower-cased address: a test copy's merge fields. */
export async function namesByAddress(
  db: Kysely<Database>,
  emails: readonly string[],
): Promise<Map<string, MergeValues>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom("subscriptions")
    .select(["email", "first_name", "last_name"])
    .where("email", "in", emails.map(normalizeEmail))
    .execute();
  return new Map(
    rows.map((row) => [row.email, { firstName: row.first_name, lastName: row.last_name }]),
  );
}
