import type { Kysely } from "kysely";
import type { Inquiry } from "../../../shared/schemas.ts";
import { leadSourceColumns, type SourceKnowledge } from "../../platform/db/lead-source.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";

/**
 * Stores an inquiry; its id. Its notification to the firm, once queued, is
 * named by linkNotification (none for one made by a script or a test).
 */
export async function insertInquiry(
  db: Kysely<Database>,
  inquiry: Inquiry,
  knowledge: SourceKnowledge = {},
): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto("inquiries")
    .values({
      first_name: inquiry.firstName,
      last_name: inquiry.lastName,
      company: inquiry.company,
      job_title: inquiry.jobTitle,
      email: inquiry.email,
      phone_number: inquiry.phoneNumber,
      inquiry_type: inquiry.inquiryType,
      comments: inquiry.comments,
      ...leadSourceColumns(inquiry.source, knowledge),
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Names the notification that told the firm of inquiry `id`. */
export async function linkNotification(
  db: Kysely<Database>,
  id: number,
  notificationOutboxId: number,
): Promise<void> {
  await db
    .updateTable("inquiries")
    .set({ notification_outbox_id: notificationOutboxId })
    .where("id", "=", id)
    .execute();
}
