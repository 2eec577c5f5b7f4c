/**
 * The audit log: who did what, when and from where. Entries are only added
 * and, after the configured retention, removed; nothing edits them.
 */
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
import type { Database } from "../db/schema.ts";
import { containsText } from "../db/text-search.ts";

export interface AuditEntry {
  userId: number | null;
  actor: string;
  action: AuditAction;
  target?: string | undefined;
  ip?: string | undefined;
  detail?: Record<string, unknown> | undefined;
}

/**
 * A burst of the same change by the same person to the same thing (a draft
 * saved as it is typed) is recorded once: an entry within `withinMs` before
 * `at` stands for the whole burst.
 */
export interface Coalesce {
  withinMs: number;
}

export async function recordAudit(
  db: Kysely<Database>,
  entry: AuditEntry,
  coalesce?: Coalesce,
): Promise<void> {
  const at = new Date();
  if (coalesce && (await recentlyRecorded(db, entry, new Date(at.getTime() - coalesce.withinMs)))) {
    return;
  }
  await db
    .insertInto("audit_log")
    .values({
      at: at.toISOString(),
      user_id: entry.userId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      ip: entry.ip ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

async function recentlyRecorded(
  db: Kysely<Database>,
  entry: AuditEntry,
  since: Date,
): Promise<boolean> {
  const found = await db
    .selectFrom("audit_log")
    .select("id")
    .where("action", "=", entry.action)
    .where("actor", "=", entry.actor)
    .where("target", entry.target === undefined ? "is" : "=", entry.target ?? null)
    .where("at", ">=", since.toISOString())
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Removes the entries older than `retentionMs` at `now`; how many went. */
export async function purgeAudit(
  db: Kysely<Database>,
  retentionMs: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs).toISOString();
  const result = await db.deleteFrom("audit_log").where("at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface AuditSearch {
  /** Found in the actor, the action or the target, ignoring case. */
  text?: string | undefined;
  action?: string | undefined;
  /** ISO instants; `from` included, `to` not. */
  from?: string | undefined;
  to?: string | undefined;
  offset: number;
  limit: number;
}

export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
}

function matching(search: AuditSearch) {
  return (eb: ExpressionBuilder<Database, "audit_log">) => {
    const conditions = [];
    if (search.text) {
      const text = search.text;
      conditions.push(
        eb.or(
          (["actor", "action", "target"] as const).map((column) =>
            containsText(sql.ref(column), text),
          ),
        ),
      );
    }
    if (search.action) conditions.push(eb("action", "=", search.action));
    if (search.from) conditions.push(eb("at", ">=", new Date(search.from).toISOString()));
    if (search.to) conditions.push(eb("at", "<", new Date(search.to).toISOString()));
    return eb.and(conditions);
  };
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (!detail) return null;
  try {
    const value: unknown = JSON.parse(detail);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** One page of the entries a search finds, newest first, and how many it finds in all. */
export async function searchAudit(
  db: Kysely<Database>,
  search: AuditSearch,
): Promise<{ entries: AuditRecord[]; total: number }> {
  const where = matching(search);
  const [rows, count] = await Promise.all([
    db
      .selectFrom("audit_log")
      .select(["id", "at", "actor", "action", "target", "ip", "detail"])
      .where(where)
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .offset(search.offset)
      .limit(search.limit)
      .execute(),
    db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((row) => ({
      ...row,
      at: row.at,
      detail: parseDetail(row.detail),
    })),
    total: Number(count.total),
  };
}

/** Every action on record, for the search's choices. */
export async function auditActions(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("audit_log")
    .select("action")
    .distinct()
    .orderBy("action")
    .execute();
  return rows.map((row) => row.action);
}
