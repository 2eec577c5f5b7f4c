import { sql } from "kysely";
import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // An edition of Insight is an issue everywhere: the table, the outbox's
  // reference, its indexes and the audit entries once said "campaign".
  await db.schema.dropIndex("outbox_campaign_recipient").execute();
  await db.schema.dropIndex("outbox_campaign_status").execute();
  await db.schema.dropIndex("campaigns_status").execute();
  await db.schema.alterTable("campaigns").renameTo("issues").execute();
  await db.schema.alterTable("outbox").renameColumn("campaign_id", "issue_id").execute();
  await db.schema
    .createIndex("issues_status")
    .on("issues")
    .columns(["status", "scheduled_at"])
    .execute();
  await db.schema
    .createIndex("outbox_issue_recipient")
    .on("outbox")
    .columns(["issue_id", "subscription_id"])
    .unique()
    .where(sql.ref("issue_id"), "is not", null)
    .execute();
  await db.schema
    .createIndex("outbox_issue_status")
    .on("outbox")
    .columns(["issue_id", "status"])
    .where(sql.ref("issue_id"), "is not", null)
    .execute();
  const renamed = (column: "action" | "target", from: string, to: string) =>
    db
      .updateTable("audit_log")
      .set({ [column]: sql`${to} || substr(${sql.ref(column)}, ${from.length + 1})` })
      .where(column, "like", `${from}%`)
      .execute();
  await renamed("action", "campaign-", "issue-");
  await renamed("target", "campaign:", "issue:");
}
