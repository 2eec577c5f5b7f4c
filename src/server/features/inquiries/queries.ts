import type { Kysely } from "kysely";
import type { Inquiry } from "../../../shared/schemas.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";

export async function insertInquiry(db: Kysely<Database>, inquiry: Inquiry): Promise<number> {
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
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
