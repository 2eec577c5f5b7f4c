/** Row types of every table, as Kysely sees them. */
import type { ColumnType, Generated } from "kysely";

/** Written as an ISO-8601 string; PostgreSQL reads back a Date, SQLite the string. */
export type Timestamp = ColumnType<Date | string, string, string>;

interface Timestamps {
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubscriptionsTable extends Timestamps {
  id: Generated<number>;
  email: string;
  subscribed_at: Timestamp;
  subscribed_via: string;
  unsubscribed_at: Timestamp | null;
  unsubscribed_via: string | null;
}

export interface InquiriesTable extends Timestamps {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  company: string;
  job_title: string;
  email: string;
  phone_number: string;
  inquiry_type: string;
  comments: string;
}

export interface TeamMembersTable extends Timestamps {
  id: Generated<number>;
  position: number;
  fullname: string;
  title: string;
  image_path: string;
  bio: string;
}

export interface ContentItemsTable extends Timestamps {
  id: Generated<number>;
  category: string;
  position: number;
  name: string;
  description: string;
  image_path: string | null;
}

export interface CaseStudiesTable extends Timestamps {
  id: Generated<number>;
  slug: string;
  position: number;
  title: string;
  summary: string;
  /** Each section's paragraphs, separated by a blank line. */
  opportunity: string;
  solution: string;
  work: string;
}

export interface SiteMetaTable extends Timestamps {
  key: string;
  value: string;
}

export type OutboxStatus = "pending" | "sent" | "failed";

export interface OutboxTable extends Timestamps {
  id: Generated<number>;
  /** What the message is for: inquiry-notification, inquiry-acknowledgement, welcome. */
  kind: string;
  /** The complete message (addresses, subject, bodies, headers) as JSON. */
  message: string;
  status: OutboxStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  /** A sender's claim on the row; another sender may take it once this has passed. */
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  sent_at: Timestamp | null;
}

export interface Database {
  subscriptions: SubscriptionsTable;
  inquiries: InquiriesTable;
  team_members: TeamMembersTable;
  content_items: ContentItemsTable;
  case_studies: CaseStudiesTable;
  site_meta: SiteMetaTable;
  outbox: OutboxTable;
}

export function nowIso(): string {
  return new Date().toISOString();
}
