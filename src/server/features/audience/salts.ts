/**
 * The day's salt, and the visitor hash made with it. A visitor is the
 * HMAC-SHA256, keyed with the UTC day's random salt, of the client's
 * address, user agent and the host it asked: the same person reads as the
 * same visitor all day, and as a stranger the next, since the next day's
 * salt is another and nobody keeps the old one past 48 hours.
 *
 * The salt is a row of audience_salts, shared by every instance: the first
 * to insert a day's row wins, the others read it. An instance keeps only
 * today's in memory.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/** How long a salt is kept after it was made; past it, the daily purge deletes it. */
export const SALT_KEPT_MS = 48 * 60 * 60 * 1000;

/** The UTC day of `at`, YYYY-MM-DD. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The day before `day`. */
function dayBefore(day: string): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) - 1);
}

/**
 * The salt of `day`: made and stored by the first instance to ask for it,
 * read by every other. The one that makes a day's salt also deletes the
 * salts of the days before yesterday, so no older one outlives the start of
 * a new day even between daily purges.
 */
export async function saltOf(db: Kysely<Database>, day: string, at: number): Promise<Buffer> {
  await db
    .insertInto("audience_salts")
    .values({
      day,
      salt: randomBytes(32).toString("hex"),
      created_at: new Date(at).toISOString(),
    })
    .onConflict((conflict) => conflict.column("day").doNothing())
    .execute();
  await db.deleteFrom("audience_salts").where("day", "<", dayBefore(day)).execute();
  const row = await db
    .selectFrom("audience_salts")
    .select("salt")
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.salt, "hex");
}

/** Deletes the salts made more than 48 hours before `now`; how many went. */
export async function deleteOldSalts(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("audience_salts")
    .where("created_at", "<", new Date(now.getTime() - SALT_KEPT_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The visitor hash of one request: kept in memory (or Redis) for its day only, never stored. */
export function visitorHash(salt: Buffer, ip: string, userAgent: string, host: string): string {
  return createHmac("sha256", salt)
    .update(ip)
    .update("\n")
    .update(userAgent)
    .update("\n")
    .update(host)
    .digest("base64url")
    .slice(0, 22);
}

/** Today's salt in memory, fetched once per day per process; the days before are forgotten. */
export class DaySalts {
  private day = "";
  private salt: Buffer | null = null;
  private pending: Promise<Buffer> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /** The salt of `day` if this process has it already (the hot path), else null. */
  cached(day: string): Buffer | null {
    return this.day === day ? this.salt : null;
  }

  async get(day: string, at: number): Promise<Buffer> {
    const cached = this.cached(day);
    if (cached) return cached;
    if (this.pending && this.day === day) return this.pending;
    this.day = day;
    this.salt = null;
    const pending = saltOf(this.db, day, at).then(
      (salt) => {
        if (this.day === day) this.salt = salt;
        return salt;
      },
      (error: unknown) => {
        // The next view asks again.
        if (this.pending === pending) this.pending = null;
        throw error;
      },
    );
    this.pending = pending;
    return pending;
  }
}
