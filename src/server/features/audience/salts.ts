/**
 * The day's salt, and the hashes made with it. A visitor is the
 * HMAC-SHA256, keyed with the UTC day's random salt, of the client's
 * address and user agent: the same person reads as the same visitor all
 * day, and as a stranger the next, since the next day's salt is another and
 * nobody keeps the old one past 48 hours. What one address may add to the
 * figures is counted under the address's own keyed hash (IPv6 by its /64,
 * as the rate limits count), made the same way, so no address is kept.
 *
 * The salt is a row of audience_salts, shared by every instance: the first
 * to insert a day's row wins, the others read it. An instance keeps only
 * today's in memory.
 */
import { createHmac, randomBytes } from "node:crypto";
import { normalizeIP } from "@fastify/rate-limit";
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/** How long a salt is kept after it was made; past it, the daily purge deletes it. */
export const SALT_KEPT_MS = 48 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The last day dayOf worked out, kept: every view asks for its day, and it is nearly always the same one. */
let lastDay = { start: 0, end: 0, day: "" };

/** The UTC day of `at`, YYYY-MM-DD. */
export function dayOf(at: number): string {
  if (at >= lastDay.start && at < lastDay.end) return lastDay.day;
  const start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = { start, end: start + DAY_MS, day: new Date(at).toISOString().slice(0, 10) };
  return lastDay.day;
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

const keyed = (salt: Buffer, text: string) =>
  createHmac("sha256", salt).update(text).digest("base64url").slice(0, 22);

/** The visitor hash of one request: kept in memory (or Redis) for its day only, never stored. */
export function visitorHash(salt: Buffer, ip: string, userAgent: string): string {
  return keyed(salt, `${ip}\n${userAgent}`);
}

/**
 * The hash a client address is counted under, whatever browsers it sends:
 * an IPv6 address by its /64, which one subscriber holds whole. Kept, as
 * the visitor hash is, in memory or Redis until the end of its day.
 */
export function addressHash(salt: Buffer, ip: string): string {
  return keyed(salt, `address\n${ip === "" ? "" : normalizeIP(ip)}`);
}

export interface ViewHashes {
  visitor: string;
  address: string;
}

/**
 * Both hashes of a view, with the salt bound, for the hot path. (Copying
 * pre-keyed SHA-256 states per request was tried, and cost twice as much in
 * Node as keying a new HMAC.)
 */
export function viewHasher(salt: Buffer): (ip: string, userAgent: string) => ViewHashes {
  return (ip, userAgent) => ({
    visitor: visitorHash(salt, ip, userAgent),
    address: addressHash(salt, ip),
  });
}

/** Today's salt in memory, fetched once per day per process; the days before are forgotten. */
export class DaySalts {
  private day = "";
  private salt: Buffer | null = null;
  private pending: Promise<Buffer> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  private dayHasher: ReturnType<typeof viewHasher> | null = null;

  /** The salt of `day` if this process has it already (the hot path), else null. */
  cached(day: string): Buffer | null {
    return this.day === day ? this.salt : null;
  }

  /** The hash function of `day`'s salt if this process has it already (the hot path), else null. */
  cachedHasher(day: string): ReturnType<typeof viewHasher> | null {
    return this.day === day ? this.dayHasher : null;
  }

  /** The hash function of `day`'s salt, fetched (or made) first when this process has none yet. */
  async hasher(day: string, at: number): Promise<ReturnType<typeof viewHasher>> {
    const salt = await this.get(day, at);
    return this.cachedHasher(day) ?? viewHasher(salt);
  }

  async get(day: string, at: number): Promise<Buffer> {
    const cached = this.cached(day);
    if (cached) return cached;
    if (this.pending && this.day === day) return this.pending;
    this.day = day;
    this.salt = null;
    this.dayHasher = null;
    const pending = saltOf(this.db, day, at).then(
      (salt) => {
        if (this.day === day) {
          this.salt = salt;
          this.dayHasher = viewHasher(salt);
        }
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
