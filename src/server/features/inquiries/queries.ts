import type { Kysely } from "kysely";
import type { Inquiry } from "../../../shared/schemas.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";

/**
 * Stores an inquiry with the outbox row of its notification to the firm; its
 * id. Null for one that came with no notification (made by a script or a test).
 */
export async function insertInquiry(
  db: Kysely<Database>,
  inquiry: Inquiry,
  notificationOutboxId: number | null = null,
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
      notification_outbox_id: notificationOutboxId,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
