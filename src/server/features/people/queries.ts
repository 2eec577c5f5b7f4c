/**
 * The people area's queries: the list of accounts, and the two changes that
 * could leave the console without an owner (a new role, a removal). For those
 * one conditional statement decides, requiring another owner who has set a
 * password to remain, and such changes take turns (see takeTurnsWithOwnerChanges).
 */
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from "kysely";
import type { Person } from "../../../shared/admin/people.ts";
import type { Role } from "../../../shared/admin/roles.ts";
import { SECOND_FACTOR_SETTING } from "../../platform/console/gate.ts";
import type { DatabaseHandle, Engine } from "../../platform/db/connection.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";

function peopleQuery(db: Kysely<Database>) {
  return db
    .selectFrom("users")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("audit_log")
          .select(["user_id", (a) => a.fn.max("at").as("at")])
          .where("action", "=", "sign-in")
          .groupBy("user_id")
          .as("audited"),
      (join) => join.onRef("audited.user_id", "=", "users.id"),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("sessions")
          .select(["user_id", (s) => s.fn.max("created_at").as("at")])
          .groupBy("user_id")
          .as("opened"),
      (join) => join.onRef("opened.user_id", "=", "users.id"),
    )
    .select([
      "users.id",
      "users.email",
      "users.name",
      "users.role",
      "users.password_hash",
      "users.totp_enabled_at",
      "audited.at as auditedAt",
      "opened.at as openedAt",
    ]);
}

type PersonRow = Awaited<ReturnType<ReturnType<typeof peopleQuery>["executeTakeFirstOrThrow"]>>;

/** The last sign-in is the later of the audit log's (kept for its retention) and a live session's. */
function toPerson(row: PersonRow): Person {
  const times = [row.auditedAt, row.openedAt].filter((t): t is string => t != null);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    secondFactor: row.totp_enabled_at !== null,
    invited: row.password_hash === null,
    lastSignInAt: times.sort().at(-1) ?? null,
  };
}

/** Everyone with an account: owners first, then editors, then viewers. */
export async function listPeople(db: Kysely<Database>): Promise<Person[]> {
  const rows = await peopleQuery(db)
    .orderBy(sql`case users.role when 'owner' then 0 when 'editor' then 1 else 2 end`)
    .orderBy("users.email")
    .execute();
  return rows.map(toPerson);
}

export async function findPerson(db: Kysely<Database>, id: number): Promise<Person | undefined> {
  const row = await peopleQuery(db).where("users.id", "=", id).executeTakeFirst();
  return row && toPerson(row);
}

/**
 * `id` is no owner, or another owner remains who can sign in (an invited
 * owner who never set a password does not count).
 */
function notTheLastOwner(id: number) {
  return (eb: ExpressionBuilder<Database, "users">) =>
    eb.or([
      eb("users.role", "<>", "owner"),
      eb.exists(
        eb
          .selectFrom("users as other")
          .select("other.id")
          .where("other.role", "=", "owner")
          .where("other.id", "<>", id)
          .where("other.password_hash", "is not", null),
      ),
    ]);
}

/**
 * Makes the changes that can take an owner away wait for each other. On
 * PostgreSQL (read committed) two of them could otherwise each still see the
 * other's owner and both go through; SQLite has one writer at a time anyway.
 */
async function takeTurnsWithOwnerChanges(trx: Transaction<Database>, engine: Engine) {
  if (engine === "postgres") {
    await sql`select pg_advisory_xact_lock(hashtext('console.owners'))`.execute(trx);
  }
}

function personToChange(trx: Transaction<Database>, id: number) {
  return trx.selectFrom("users").select(["email", "role"]).where("id", "=", id).executeTakeFirst();
}

export type GuardedChange<T> = { done: T } | { refused: "missing" | "last-owner" };

/** Gives `id` a new role, unless that would leave no owner who can sign in. */
export function changeRole(
  { db, engine }: DatabaseHandle,
  id: number,
  role: Role,
): Promise<GuardedChange<{ email: string; from: Role }>> {
  return inTransaction(db, async (trx) => {
    await takeTurnsWithOwnerChanges(trx, engine);
    const person = await personToChange(trx, id);
    if (!person) return { refused: "missing" };
    let update = trx.updateTable("users").set({ role, updated_at: nowIso() }).where("id", "=", id);
    if (role !== "owner") update = update.where(notTheLastOwner(id));
    const updated = await update.executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { refused: "last-owner" };
    return { done: { email: person.email, from: person.role } };
  });
}

/** Removes `id` (their sessions and links go with them), unless they are the last owner. */
export function removePerson(
  { db, engine }: DatabaseHandle,
  id: number,
): Promise<GuardedChange<{ email: string; role: Role }>> {
  return inTransaction(db, async (trx) => {
    await takeTurnsWithOwnerChanges(trx, engine);
    const person = await personToChange(trx, id);
    if (!person) return { refused: "missing" };
    const deleted = await trx
      .deleteFrom("users")
      .where("id", "=", id)
      .where(notTheLastOwner(id))
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return { refused: "last-owner" };
    return { done: { email: person.email, role: person.role } };
  });
}

export async function setSecondFactorRequired(db: Kysely<Database>, required: boolean) {
  const now = nowIso();
  await db
    .insertInto("site_meta")
    .values({
      key: SECOND_FACTOR_SETTING,
      value: String(required),
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({ value: String(required), updated_at: now }),
    )
    .execute();
}
