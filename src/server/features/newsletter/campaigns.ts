/**
 * Insight campaigns: the drafts the console edits, and the states of a send.
 * Every change of state is one UPDATE whose WHERE names the state it leaves,
 * so two people (or two instances) cannot both move a campaign: the second
 * finds no row and is told why.
 */
import type { Kysely, Selectable } from "kysely";
import type {
  CampaignDraft,
  CampaignProgress,
  CampaignRow,
  CampaignUpdate,
} from "../../../shared/admin/newsletter.ts";
import type { Author } from "../../platform/console/author.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { isUniqueViolation } from "../../platform/db/unique-violation.ts";

export interface CampaignRecord extends CampaignRow {
  summary: string;
  body: string;
  version: number;
  queuedAllAt: string | null;
  rate: number | null;
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
] as const;

type RecordColumns = Pick<Selectable<Database["campaigns"]>, (typeof RECORD_COLUMNS)[number]>;

function toRecord(row: RecordColumns): CampaignRecord {
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
  };
}

/** Every campaign, newest first. */
export async function listCampaigns(db: Kysely<Database>): Promise<CampaignRow[]> {
  const rows = await db
    .selectFrom("campaigns")
    .select(RECORD_COLUMNS)
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => rowOf(toRecord(row)));
}

/** The columns the console's list shows. */
export function rowOf(record: CampaignRecord): CampaignRow {
  const { id, slug, title, status, scheduledAt, startedAt, finishedAt, recipients } = record;
  return {
    ...{ id, slug, title, status, scheduledAt, startedAt, finishedAt, recipients },
    updatedAt: record.updatedAt,
    author: record.author,
  };
}

export async function findCampaign(
  db: Kysely<Database>,
  id: number,
): Promise<CampaignRecord | undefined> {
  const row = await db
    .selectFrom("campaigns")
    .select(RECORD_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** A write the campaign's state or another campaign's slug refused. */
export type CampaignRefusal = "missing" | "slug-taken" | "stale" | "wrong-state";

/** Runs a write; a slug another campaign has is a refusal, not an error. */
async function withUniqueSlug<T>(write: () => Promise<T>): Promise<T | "slug-taken"> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return "slug-taken";
    throw error;
  }
}

export function createCampaign(
  db: Kysely<Database>,
  draft: CampaignDraft,
  author: Author,
): Promise<number | "slug-taken"> {
  const now = nowIso();
  return withUniqueSlug(async () => {
    const row = await db
      .insertInto("campaigns")
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

/** Why a write found no row: the campaign is gone, or not in a state that allows it. */
async function refusalOf(
  db: Kysely<Database>,
  id: number,
  version?: number,
): Promise<CampaignRefusal> {
  const current = await findCampaign(db, id);
  if (!current) return "missing";
  if (version !== undefined && current.status === "draft" && current.version !== version) {
    return "stale";
  }
  return "wrong-state";
}

/** Saves a draft edited from `version`; refused once the campaign has left the draft state. */
export async function updateDraft(
  db: Kysely<Database>,
  id: number,
  { version, ...draft }: CampaignUpdate,
): Promise<CampaignRefusal | null> {
  const result = await withUniqueSlug(() =>
    db
      .updateTable("campaigns")
      .set((eb) => ({ ...draft, version: eb("version", "+", 1), updated_at: nowIso() }))
      .where("id", "=", id)
      .where("version", "=", version)
      .where("status", "=", "draft")
      .executeTakeFirst(),
  );
  if (result === "slug-taken") return result;
  return result.numUpdatedRows > 0n ? null : refusalOf(db, id, version);
}

export async function deleteDraft(
  db: Kysely<Database>,
  id: number,
): Promise<CampaignRefusal | null> {
  const result = await db
    .deleteFrom("campaigns")
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  return result.numDeletedRows > 0n ? null : refusalOf(db, id);
}

export interface FrozenIssue {
  emailHtml: string;
  emailText: string;
  webHtml: string;
}

/**
 * Asks for a draft to be sent at `at` (now for "send now"), with its
 * rendering frozen: every copy and the archive show what was previewed.
 */
export async function scheduleSend(
  db: Kysely<Database>,
  id: number,
  { at, rate, rendered }: { at: Date; rate: number; rendered: FrozenIssue },
): Promise<CampaignRefusal | null> {
  const result = await db
    .updateTable("campaigns")
    .set({
      status: "scheduled",
      scheduled_at: at.toISOString(),
      rate,
      email_html: rendered.emailHtml,
      email_text: rendered.emailText,
      web_html: rendered.webHtml,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? null : refusalOf(db, id);
}

/** A scheduled campaign back to a draft, editable again. */
export async function unschedule(
  db: Kysely<Database>,
  id: number,
): Promise<CampaignRefusal | null> {
  const result = await db
    .updateTable("campaigns")
    .set({
      status: "draft",
      scheduled_at: null,
      rate: null,
      email_html: null,
      email_text: null,
      web_html: null,
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("status", "=", "scheduled")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? null : refusalOf(db, id);
}

/** Counts of a campaign's messages in the outbox, from the outbox_campaign_status index. */
export async function campaignProgress(
  db: Kysely<Database>,
  campaign: CampaignRecord,
): Promise<CampaignProgress> {
  const rows = await db
    .selectFrom("outbox")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("campaign_id", "=", campaign.id)
    .groupBy("status")
    .execute();
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  const queued = count("pending");
  const sent = count("sent");
  const failed = count("failed");
  return {
    status: campaign.status,
    recipients: campaign.recipients,
    queued,
    sent,
    failed,
    withdrawn: Math.max(0, campaign.recipients - queued - sent - failed),
    queuedAll: campaign.queuedAllAt !== null,
    rate: campaign.rate,
    scheduledAt: campaign.scheduledAt,
    startedAt: campaign.startedAt,
    finishedAt: campaign.finishedAt,
  };
}
