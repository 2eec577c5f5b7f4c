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

export interface SiteMetaTable extends Timestamps {
  key: string;
  value: string;
}

export interface Database {
  subscriptions: SubscriptionsTable;
  inquiries: InquiriesTable;
  team_members: TeamMembersTable;
  content_items: ContentItemsTable;
  site_meta: SiteMetaTable;
}

export function nowIso(): string {
  return new Date().toISOString();
}
