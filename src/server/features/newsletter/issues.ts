/**
 * Insight issues: the drafts the console edits, and the states of a send.
 * Every change of state is one UPDATE whose WHERE names the state it leaves,
 * so two people (or two instances) cannot both move an issue: the second
 * finds no row and is told why.
 */
import type { Kysely, Selectable } from "kysely";
import {
  type IssueDraft,
  type IssueProgress,
  type IssueRow,
  type IssueUpdate,
  type Segment,
  segmentSchema,
} from "../../../shared/admin/newsletter.ts";
import type { Author } from "../../platform/console/author.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { isUniqueViolation } from "../../platform/db/unique-violation.ts";

export interface IssueRecord extends IssueRow {
  summary: string;
  body: string;
  version: number;
  queuedAllAt: string | null;
  rate: number | null;
  pausedReason: string | null;
  withdrawnAt: string | null;
  correctedAt: string | null;
  segment: Segment | null;
}

const RECORD_COLUMNS = [
  "id",
  "slug",
  "title",
  "summary",
  "body",
  "status",
  "version",
  "scheduled_at",
  "started_at",
  "queued_all_at",
  "finished_at",
  "recipients",
  "rate",
  "author",
  "updated_at",
  "paused_reason",
  "withdrawn_at",
  "corrected_at",
  "segment",
] as const;

type RecordColumns = Pick<Selectable<Database["issues"]>, (typeof RECORD_COLUMNS)[number]>;

function toRecord(row: RecordColumns): IssueRecord {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    body: row.body,
    status: row.status,
    version: row.version,
    scheduledAt: row.scheduled_at,
    startedAt: row.started_at,
    queuedAllAt: row.queued_all_at,
    finishedAt: row.finished_at,
    recipients: row.recipients,
    rate: row.rate,
    author: row.author,
    updatedAt: row.updated_at,
    pausedReason: row.paused_reason,
    withdrawnAt: row.withdrawn_at,
    correctedAt: row.corrected_at,
    segment: segmentOf(row.segment),
  };
}

/** An issue's segment as stored with its send (JSON), checked again as it is read. */
export function segmentOf(stored: string | null): Segment | null {
  return stored === null ? null : segmentSchema.parse(JSON.parse(stored));
}

/** Every issue, newest first. */
export async function listIssues(db: Kysely<Database>): Promise<IssueRow[]> {
  const rows = await db.selectFrom("issues").select(RECORD_COLUMNS).orderBy("id", "desc").execute();
  return rows.map((row) => rowOf(toRecord(row)));
}

/** The columns the console's list shows. */
export function rowOf(record: IssueRecord): IssueRow {
  const { id, slug, title, status, scheduledAt, startedAt, finishedAt, recipients } = record;
  return {
    ...{ id, slug, title, status, scheduledAt, startedAt, finishedAt, recipients },
    updatedAt: record.updatedAt,
    author: record.author,
  };
}

export async function findIssue(
  db: Kysely<Database>,
  id: number,
): Promise<IssueRecord | undefined> {
  const row = await db
    .selectFrom("issues")
    .select(RECORD_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** A write the issue's state or another issue's slug refused. */
export type IssueRefusal = "missing" | "slug-taken" | "stale" | "wrong-state";

/** Runs a write; a slug another issue has is a refusal, not an error. */
async function withUniqueSlug<T>(write: () => Promise<T>): Promise<T | "slug-taken"> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return "slug-taken";
    throw error;
  }
}

export function createIssue(
  db: Kysely<Database>,
  draft: IssueDraft,
  author: Author,
): Promise<number | "slug-taken"> {
  const now = nowIso();
  return withUniqueSlug(async () => {
    const row = await db
      .insertInto("issues")
      .values({
        ...draft,
        user_id: author.userId,
        author: author.recordedAs,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** Why a write found no row: the issue is gone, or not in a state that allows it. */
async function refusalOf(
  db: Kysely<Database>,
  id: number,
  version?: number,
): Promise<IssueRefusal> {
  const current = await findIssue(db, id);
  if (!current) return "missing";
  if (version !== undefined && current.status === "draft" && current.version !== version) {
    return "stale";
  }
  return "wrong-state";
}

/** Saves a draft edited from `version`; refused once the issue has left the draft state. */
export async function updateDraft(
  db: Kysely<Database>,
  id: number,
  { version, ...draft }: IssueUpdate,
): Promise<IssueRefusal | null> {
  const result = await withUniqueSlug(() =>
    db
      .updateTable("issues")
      .set((eb) => ({ ...draft, version: eb("version", "+", 1), updated_at: nowIso() }))
      .where("id", "=", id)
      .where("version", "=", version)
      .where("status", "=", "draft")
      .executeTakeFirst(),
  );
  if (result === "slug-taken") return result;
  return result.numUpdatedRows > 0n ? null : refusalOf(db, id, version);
}

export async function deleteDraft(db: Kysely<Database>, id: number): Promise<IssueRefusal | null> {
  const result = await db
    .deleteFrom("issues")
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  return result.numDeletedRows > 0n ? null : refusalOf(db, id);
}

export interface IssueRendering {
  emailHtml: string;
  emailText: string;
  webHtml: string;
  /** Where the e-mail's counted links lead on to, link 1 first (render.ts). */
  links: string[];
}

/**
 * Asks for a draft to be sent at `at` (now for "send now"), to everyone
 * active or to `segment`, with its rendering frozen: every copy and the archive show what was previewed,
 * and each counted link leads where it did in the preview. Called in the
 * console's write transaction, so the issue and its links change together.
 */
export async function scheduleSend(
  db: Kysely<Database>,
  id: number,
  send: { at: Date; rate: number; segment: Segment | null; rendered: IssueRendering },
): Promise<IssueRefusal | null> {
  const { at, rate, segment, rendered } = send;
  const result = await db
    .updateTable("issues")
    .set({
      status: "scheduled",
      scheduled_at: at.toISOString(),
      rate,
      segment: segment && JSON.stringify(segment),
      email_html: rendered.emailHtml,
      email_text: rendered.emailText,
      web_html: rendered.webHtml,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return refusalOf(db, id);
  if (rendered.links.length > 0) {
    await db
      .insertInto("issue_links")
      .values(rendered.links.map((url, index) => ({ issue_id: id, position: index + 1, url })))
      .execute();
  }
  return null;
}

/** A scheduled issue back to a draft, editable again (in the console's write transaction). */
export async function unschedule(db: Kysely<Database>, id: number): Promise<IssueRefusal | null> {
  const result = await db
    .updateTable("issues")
    .set({
      status: "draft",
      scheduled_at: null,
      rate: null,
      segment: null,
      email_html: null,
      email_text: null,
      web_html: null,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("status", "=", "scheduled")
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return refusalOf(db, id);
  // No copy went out: the links are made again when it is next sent.
  await db.deleteFrom("issue_links").where("issue_id", "=", id).execute();
  return null;
}

/** Counts of an issue's messages in the outbox, from the outbox_issue_status index. */
export async function issueProgress(
  db: Kysely<Database>,
  issue: IssueRecord,
): Promise<IssueProgress> {
  const rows = await db
    .selectFrom("outbox")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("issue_id", "=", issue.id)
    .groupBy("status")
    .execute();
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  const queued = count("pending");
  const sent = count("sent");
  const failed = count("failed");
  return {
    status: issue.status,
    recipients: issue.recipients,
    queued,
    sent,
    failed,
    withdrawn: Math.max(0, issue.recipients - queued - sent - failed),
    queuedAll: issue.queuedAllAt !== null,
    rate: issue.rate,
    pausedReason: issue.pausedReason,
    scheduledAt: issue.scheduledAt,
    startedAt: issue.startedAt,
    finishedAt: issue.finishedAt,
  };
}
