/**
 * Console sessions, kept in the database so every instance knows them and
 * "sign out everywhere" is one delete. The cookie holds a random token; the
 * table holds its SHA-256, so a copy of the table opens no session.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { hashToken, newSecretToken } from "./tokens.ts";
import { type ConsoleUser, findUserById } from "./users.ts";

export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

export interface Client {
  ip: string;
  userAgent: string;
}

export async function createSession(
  db: Kysely<Database>,
  userId: number,
  client: Client,
  { maxMs }: SessionLimits,
  now = new Date(),
): Promise<string> {
  const token = newSecretToken();
  await db
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + maxMs).toISOString(),
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 300),
    })
    .execute();
  return token;
}

export interface OpenSession {
  id: string;
  user: ConsoleUser;
}

/**
 * The session a token opens, if it has neither idled out nor reached its
 * end. One update both decides and records this use, so the idle limit runs
 * from the last request itself: a write per console request, which is what
 * makes the limit exact rather than up to a write interval short.
 */
export async function findSession(
  db: Kysely<Database>,
  token: string,
  { idleMs }: SessionLimits,
  now = new Date(),
): Promise<OpenSession | undefined> {
  const id = hashToken(token);
  const row = await db
    .updateTable("sessions")
    .set({ last_seen_at: now.toISOString() })
    .where("id", "=", id)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", new Date(now.getTime() - idleMs).toISOString())
    .returning("user_id")
    .executeTakeFirst();
  if (!row) return undefined;
  const user = await findUserById(db, row.user_id);
  return user && { id, user };
}

/**
 * The person whose session is stored as `id` (its token's hash), while the
 * session is live and the account exists, without counting as a use: a
 * draft's preview pass (features/content/preview-link.ts) and the audience's
 * staff mark name a session, and ask this at each use.
 */
export async function liveSessionUser(
  db: Kysely<Database>,
  id: string,
  { idleMs }: SessionLimits,
  now = new Date(),
): Promise<ConsoleUser | undefined> {
  const row = await db
    .selectFrom("sessions")
    .select("user_id")
    .where("id", "=", id)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", new Date(now.getTime() - idleMs).toISOString())
    .executeTakeFirst();
  return row && findUserById(db, row.user_id);
}

export async function deleteSession(db: Kysely<Database>, id: string) {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

/** Ends every session of an account: sign out everywhere, a new password, a removal. */
export async function deleteUserSessions(db: Kysely<Database>, userId: number) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/**
 * Removes the sessions that ended (idled out or reached their end) more
 * than `keptMs` before `now`, with the address and browser they hold; how
 * many went. A session signed out is gone already.
 */
export async function deleteEndedSessions(
  db: Kysely<Database>,
  { idleMs }: SessionLimits,
  keptMs: number,
  now: Date,
): Promise<number> {
  const endedBy = now.getTime() - keptMs;
  const result = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", new Date(endedBy).toISOString()),
        eb("last_seen_at", "<=", new Date(endedBy - idleMs).toISOString()),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of an account but `keepId`: a changed password leaves only the changer in. */
export async function deleteOtherSessions(db: Kysely<Database>, userId: number, keepId: string) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "<>", keepId).execute();
}

export interface SessionSummary {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string;
  userAgent: string;
}

/** An account's live sessions, the most recently used first. */
export async function listUserSessions(
  db: Kysely<Database>,
  userId: number,
  { idleMs }: SessionLimits,
): Promise<SessionSummary[]> {
  const now = Date.now();
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "created_at", "last_seen_at", "ip", "user_agent"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", new Date(now).toISOString())
    .where("last_seen_at", ">", new Date(now - idleMs).toISOString())
    .orderBy("last_seen_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    ip: row.ip,
    userAgent: row.user_agent,
  }));
}
