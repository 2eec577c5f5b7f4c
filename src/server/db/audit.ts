/**
 * The audit log: who did what, when and from where. Entries are only added
 * and, after the configured retention, removed; nothing edits them.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

export interface AuditEntry {
  userId: number | null;
  actor: string;
  action: string;
  target?: string | undefined;
  ip?: string | undefined;
  detail?: Record<string, unknown> | undefined;
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at: new Date().toISOString(),
      user_id: entry.userId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      ip: entry.ip ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

export async function purgeAudit(db: Kysely<Database>, retentionMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  const result = await db.deleteFrom("audit_log").where("at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
