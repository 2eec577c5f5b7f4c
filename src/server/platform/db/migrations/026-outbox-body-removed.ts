import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // A sent message's subject and bodies go after OUTBOX_SENT_RETENTION_DAYS;
  // its row stays (the send's figures, a late bounce's trace, an
  // inquiry's notification), marked so the daily purge passes it by.
  await db.schema
    .alterTable("outbox")
    .addColumn("body_removed_at", types.timestamp as "text")
    .execute();
  // Only the firm's own mail holds a body: an Insight copy holds its Message-ID.
  await db.schema
    .createIndex("outbox_body_kept")
    .on("outbox")
    .column("sent_at")
    .where(sql.ref("body_removed_at"), "is", null)
    .where(sql.ref("issue_id"), "is", null)
    .execute();
}
