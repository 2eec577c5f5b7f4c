/**
 * The inquiries inbox's queries: the filtered, paged list with its counts per
 * status, one inquiry with its notes and whether the firm was notified of
 * it, and the firm's handling of it (status, assignee, notes). The text
 * search is case-insensitive on both engines.
 */
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  sql,
} from "kysely";
import {
  INBOX_PAGE_SIZE,
  INQUIRY_STATUSES,
  type InquiryDetail,
  type InquiryFilter,
  type InquiryStatus,
  type InquirySummary,
  type NoteView,
  type NotificationState,
  type Person,
  type StatusCounts,
} from "../../../shared/admin/inquiries.ts";
import { SOURCE_EXPORT_COLUMNS } from "../../../shared/admin/lead-source.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import {
  LEAD_SOURCE_COLUMNS,
  leadSourceCells,
  leadSourceOf,
} from "../../platform/db/lead-source.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { containsText } from "../../platform/db/text-search.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import type { MailMessage } from "../../platform/outbox/message.ts";
import { mailAddress } from "../../platform/outbox/queue.ts";
import { forgetDeliveriesAbout } from "../webhooks/index.ts";

type InquiryQuery = SelectQueryBuilder<Database, "inquiries", object>;

/** The search's words; each must appear in one of the searched fields. */
const MAX_WORDS = 8;

function matchesWord(eb: ExpressionBuilder<Database, "inquiries">, word: string) {
  const like = (text: Expression<string>) => containsText(text, word);
  return eb.or([
    like(sql`inquiries.first_name || ' ' || inquiries.last_name`),
    like(sql.ref("inquiries.company")),
    like(sql.ref("inquiries.email")),
    like(sql.ref("inquiries.comments")),
  ]);
}

/**
 * The inquiries the filter matches; `byStatus: false` leaves the status
 * aside (the counts per status use the type and text only).
 */
function matching(
  db: Kysely<Database>,
  filter: InquiryFilter,
  { byStatus = true } = {},
): InquiryQuery {
  let query: InquiryQuery = db.selectFrom("inquiries");
  if (filter.type) query = query.where("inquiries.inquiry_type", "=", filter.type);
  if (byStatus && filter.status) query = query.where("inquiries.status", "=", filter.status);
  const words = (filter.q ?? "").split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  for (const word of words) query = query.where((eb) => matchesWord(eb, word));
  return query;
}

/**
 * Whether the firm was told, from the inquiry's notification in the outbox:
 * failed when the outbox gave up on it or a hard bounce came back for it
 * since, pending while it waits for a try, else sent. An inquiry from before
 * inquiries named their notification has none, and reads as sent: the
 * firm has had it in this inbox since, whatever became of the mail.
 */
const notifiedState = sql<NotificationState>`case
  when notification.status = 'failed' or exists (
    select 1 from delivery_reports
    where delivery_reports.outbox_id = notification.id and delivery_reports.kind = 'hard'
  ) then 'failed'
  when notification.status = 'pending' then 'pending'
  else 'sent'
end`;

/** How many inquiries nobody has opened since their notification failed. */
export async function countUnseenFailures(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom("inquiries")
    .leftJoin("outbox as notification", "notification.id", "inquiries.notification_outbox_id")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("inquiries.notification_failure_seen_at", "is", null)
    .where(sql<boolean>`${notifiedState} = 'failed'`)
    .executeTakeFirstOrThrow();
  // PostgreSQL answers count(*) as a bigint, which pg reads as a string.
  return Number(n);
}

/** Records that someone opened an inquiry whose notification failed; the first time counts. */
export async function markFailureSeen(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable("inquiries")
    .set({ notification_failure_seen_at: nowIso() })
    .where("id", "=", id)
    .where("notification_failure_seen_at", "is", null)
    .execute();
}

function summaries(db: Kysely<Database>, filter: InquiryFilter) {
  return matching(db, filter)
    .leftJoin("users as assignee", "assignee.id", "inquiries.assignee_id")
    .leftJoin("outbox as notification", "notification.id", "inquiries.notification_outbox_id")
    .select(notifiedState.as("notified"))
    .select([
      "inquiries.id",
      "inquiries.created_at",
      "inquiries.first_name",
      "inquiries.last_name",
      "inquiries.company",
      "inquiries.job_title",
      "inquiries.email",
      "inquiries.phone_number",
      "inquiries.inquiry_type",
      "inquiries.comments",
      "inquiries.status",
      "assignee.id as assignee_id",
      "assignee.name as assignee_name",
      "assignee.email as assignee_email",
      ...LEAD_SOURCE_COLUMNS.map((column) => `inquiries.${column}` as const),
    ])
    .orderBy("inquiries.created_at", "desc")
    .orderBy("inquiries.id", "desc");
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>["executeTakeFirstOrThrow"]>>;

function assigneeOf(row: SummaryRow): Person | null {
  return row.assignee_id === null
    ? null
    : { id: row.assignee_id, name: row.assignee_name ?? "", email: row.assignee_email ?? "" };
}

function toSummary(row: SummaryRow): InquirySummary {
  return {
    id: row.id,
    receivedAt: row.created_at,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    email: row.email,
    inquiryType: row.inquiry_type,
    status: row.status,
    assignee: assigneeOf(row),
    notified: row.notified,
  };
}

export async function countByStatus(
  db: Kysely<Database>,
  filter: InquiryFilter,
): Promise<StatusCounts> {
  const rows = await matching(db, filter, { byStatus: false })
    .select(["inquiries.status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .groupBy("inquiries.status")
    .execute();
  const counts = Object.fromEntries(INQUIRY_STATUSES.map((status) => [status, 0])) as StatusCounts;
  // PostgreSQL answers count(*) as a bigint, which pg reads as a string.
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/**
 * The types the inbox's filter offers: those on offer now (`current`, in the
 * firm's order), then any other an inquiry was stored with (a type since
 * withdrawn or renamed), by name, so old inquiries can still be found.
 */
export async function filterTypes(
  db: Kysely<Database>,
  current: readonly string[],
): Promise<string[]> {
  const rows = await db.selectFrom("inquiries").select("inquiry_type").distinct().execute();
  const withdrawn = rows
    .map((row) => row.inquiry_type)
    .filter((type) => !current.includes(type))
    .sort((a, b) => a.localeCompare(b, "en"));
  return [...current, ...withdrawn];
}

export async function listInquiries(db: Kysely<Database>, filter: InquiryFilter, page: number) {
  const [rows, counts] = await Promise.all([
    summaries(db, filter)
      .limit(INBOX_PAGE_SIZE)
      .offset((page - 1) * INBOX_PAGE_SIZE)
      .execute(),
    countByStatus(db, filter),
  ]);
  const total = filter.status
    ? counts[filter.status]
    : Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    inquiries: rows.map(toSummary),
    page,
    pageSize: INBOX_PAGE_SIZE,
    total,
    counts,
  };
}

/** Every inquiry the filter matches, newest first, as the export's rows. */
export async function exportInquiries(db: Kysely<Database>, filter: InquiryFilter) {
  const rows = await summaries(db, filter).execute();
  return rows.map((row) => ({
    id: row.id,
    received_at: row.created_at,
    status: row.status,
    inquiry_type: row.inquiry_type,
    first_name: row.first_name,
    last_name: row.last_name,
    company: row.company,
    job_title: row.job_title,
    email: row.email,
    phone_number: row.phone_number,
    comments: row.comments,
    assignee: row.assignee_email ?? "",
    ...leadSourceCells(row),
  }));
}

export const EXPORT_COLUMNS = [
  "id",
  "received_at",
  "status",
  "inquiry_type",
  "first_name",
  "last_name",
  "company",
  "job_title",
  "email",
  "phone_number",
  "comments",
  "assignee",
  ...SOURCE_EXPORT_COLUMNS,
] as const;

async function notesOf(db: Kysely<Database>, inquiryId: number): Promise<NoteView[]> {
  const rows = await db
    .selectFrom("inquiry_notes")
    .select(["id", "author", "body", "created_at"])
    .where("inquiry_id", "=", inquiryId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    author: row.author,
    body: row.body,
    createdAt: row.created_at,
  }));
}

export async function findInquiry(
  db: Kysely<Database>,
  id: number,
): Promise<InquiryDetail | undefined> {
  const row = await summaries(db, {}).where("inquiries.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toSummary(row),
    jobTitle: row.job_title,
    phoneNumber: row.phone_number,
    comments: row.comments,
    source: leadSourceOf(row),
    notes: await notesOf(db, id),
  };
}

/** What erasing a person's inquiries deleted. */
export interface InquirerErasure {
  inquiries: number;
  /** The firm's notifications of them and the person's acknowledgements, queued or sent. */
  mailDeleted: number;
}

/** The tables eraseInquirer deletes from, whose deleted rows' bytes go afterwards (forgetErasedRows). */
export const INQUIRER_ERASURE_TABLES = [
  "inquiries",
  "inquiry_notes",
  "outbox",
  "webhook_deliveries",
] as const;

/** The mail an inquiry makes (mail.ts). */
const INQUIRY_MAIL_KINDS = ["inquiry-notification", "inquiry-acknowledgement"];

/**
 * Erases what the person who sent inquiry `id` sent through the contact form:
 * every inquiry from their address (its notes go with it) and the mail those
 * made, addressed to them or answering to them (the firm's notification has
 * their address as Reply-To). Answers what went, with the address and the
 * deleted mail's Message-IDs, by which their copies in the mailbox folder
 * are found; undefined when there is no such inquiry.
 */
export function eraseInquirer(
  { db, engine }: DatabaseHandle,
  id: number,
): Promise<(InquirerErasure & { email: string; messageIds: string[] }) | undefined> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("inquiries")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const email = row.email.toLowerCase();
    const mail = await trx
      .deleteFrom("outbox")
      .where("kind", "in", INQUIRY_MAIL_KINDS)
      .where((eb) =>
        eb.or([
          eb(mailAddress(engine, "to"), "=", email),
          eb(mailAddress(engine, "replyTo"), "=", email),
        ]),
      )
      .returning("message")
      .execute();
    await forgetDeliveriesAbout(trx, email, "inquiry");
    const inquiries = await trx
      .deleteFrom("inquiries")
      .where(sql<string>`lower(email)`, "=", email)
      .executeTakeFirst();
    return {
      inquiries: Number(inquiries.numDeletedRows),
      mailDeleted: mail.length,
      email,
      messageIds: mail.map((deleted) => (JSON.parse(deleted.message) as MailMessage).messageId),
    };
  });
}

/** Sets the status; answers the one before, or undefined when there is no such inquiry. */
export async function setInquiryStatus(
  db: Kysely<Database>,
  id: number,
  status: InquiryStatus,
): Promise<InquiryStatus | undefined> {
  return inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom("inquiries")
      .select("status")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before) return undefined;
    await trx
      .updateTable("inquiries")
      .set({ status, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
    return before.status;
  });
}

export type AssignOutcome = "assigned" | "no-inquiry" | "no-person";

/** A foreign key refused the value: SQLite and PostgreSQL say so in their own ways. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}

/**
 * Assigns the inquiry to a console account, or unassigns it (null). The
 * foreign key decides whether the account exists, so an account removed a
 * moment ago cannot slip in.
 */
export async function assignInquiry(
  db: Kysely<Database>,
  id: number,
  assigneeId: number | null,
): Promise<AssignOutcome> {
  try {
    const result = await db
      .updateTable("inquiries")
      .set({ assignee_id: assigneeId, updated_at: nowIso() })
      .where("id", "=", id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? "assigned" : "no-inquiry";
  } catch (error) {
    if (isForeignKeyViolation(error)) return "no-person";
    throw error;
  }
}

/** Adds a note by `author`; answers its id, or undefined when there is no such inquiry. */
export async function addInquiryNote(
  db: Kysely<Database>,
  inquiryId: number,
  author: { id: number; name: string },
  body: string,
): Promise<number | undefined> {
  try {
    const row = await db
      .insertInto("inquiry_notes")
      .values({
        inquiry_id: inquiryId,
        author_id: author.id,
        author: author.name,
        body,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    if (isForeignKeyViolation(error)) return undefined;
    throw error;
  }
}

/** The console's accounts, by name then address: whom an inquiry can be assigned to. */
export async function assignablePeople(db: Kysely<Database>): Promise<Person[]> {
  return db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .orderBy("name")
    .orderBy("email")
    .execute();
}
