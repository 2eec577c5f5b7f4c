/**
 * The one secret the server signs its links and tokens with: unsubscribe
 * and confirmation links, and the forms' cross-site tokens.
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { type Database, nowIso } from "../db/schema.ts";

/** Its row in site_meta; the name predates the secret's other uses, and stored secrets keep it. */
const SECRET_KEY = "unsubscribe_secret";

/**
 * The signing secret: UNSUBSCRIBE_SECRET when set, otherwise one generated on
 * the first start and kept in the database, shared by every instance.
 */
export async function signingSecret(
  db: Kysely<Database>,
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  const now = nowIso();
  await db
    .insertInto("site_meta")
    .values({
      key: SECRET_KEY,
      value: randomBytes(32).toString("base64url"),
      created_at: now,
      updated_at: now,
    })
    .onConflict((c) => c.column("key").doNothing())
    .execute();
  const row = await db
    .selectFrom("site_meta")
    .select("value")
    .where("key", "=", SECRET_KEY)
    .executeTakeFirstOrThrow();
  return row.value;
}
