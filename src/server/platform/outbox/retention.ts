/**
 * What the outbox keeps of sent mail (ADR 048). A sent message's subject,
 * bodies and headers (an inquiry's text, a password link, an unsubscribe
 * link) go OUTBOX_SENT_RETENTION_DAYS after it was sent; the row stays with
 * the message's Message-ID, sender and recipient, which a send's figures,
 * an inquiry's "not notified" and a late bounce's trace still read. Mail
 * waiting or failed is never touched: the console and the alarms still
 * need it whole. An Insight copy holds no body to remove.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { MailMessage } from "./message.ts";

/** Rows read and rewritten at a time, so a first purge over years of mail holds no lock long. */
const BATCH = 200;

/** What stays of a sent message once its body is removed. */
export type KeptOfMessage = Pick<MailMessage, "messageId" | "from" | "to">;

function keptOf(message: string): KeptOfMessage {
  const { messageId, from, to } = JSON.parse(message) as MailMessage;
  return { messageId, from, to };
}

/** Removes the bodies of the messages sent more than `keptMs` before `now`; how many. */
export async function removeSentBodies(
  db: Kysely<Database>,
  keptMs: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - keptMs).toISOString();
  let removed = 0;
  for (;;) {
    const rows = await db
      .selectFrom("outbox")
      .select(["id", "message"])
      .where("status", "=", "sent")
      .where("issue_id", "is", null)
      .where("body_removed_at", "is", null)
      .where("sent_at", "<", cutoff)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      await db
        .updateTable("outbox")
        .set({ message: JSON.stringify(keptOf(row.message)), body_removed_at: now.toISOString() })
        .where("id", "=", row.id)
        .where("status", "=", "sent")
        .execute();
    }
    removed += rows.length;
    if (rows.length < BATCH) return removed;
  }
}
