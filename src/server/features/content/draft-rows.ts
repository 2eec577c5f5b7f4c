/**
 * The drafts' table (content_drafts): one row per record at most, which the
 * unique (list, record_id) holds, so saving a draft is one upsert whoever
 * saved first. A scheduled draft is taken for publishing by one conditional
 * statement that clears its time (claimScheduled), so of the instances
 * polling together only one publishes it.
 */
import type { Kysely } from "kysely";
import type { ContentList, EntryFields, ListedDraft } from "../../../shared/admin/content.ts";
import type { Draft } from "../../../shared/admin/content-drafts.ts";
import type { Author } from "../../platform/console/author.ts";
import type { Database } from "../../platform/db/schema.ts";

/** A draft with the record it belongs to. */
export interface StoredDraft extends Draft {
  list: ContentList;
  recordId: number;
  userId: number | null;
}

interface DraftRow {
  id: number;
  list: string;
  record_id: number;
  fields: string;
  base_version: number;
  user_id: number | null;
  author: string;
  updated_at: string;
  publish_at: string | null;
  scheduled_by: string | null;
  conflict: string | null;
}

const COLUMNS = [
  "id",
  "list",
  "record_id",
  "fields",
  "base_version",
  "user_id",
  "author",
  "updated_at",
  "publish_at",
  "scheduled_by",
  "conflict",
] as const;

function toDraft(row: DraftRow): StoredDraft {
  return {
    id: row.id,
    list: row.list as ContentList,
    recordId: row.record_id,
    fields: JSON.parse(row.fields) as EntryFields,
    baseVersion: row.base_version,
    userId: row.user_id,
    author: row.author,
    updatedAt: row.updated_at,
    publishAt: row.publish_at,
    scheduledBy: row.scheduled_by,
    conflict: row.conflict,
  };
}

const selectDrafts = (db: Kysely<Database>) => db.selectFrom("content_drafts").select(COLUMNS);

export async function findDraft(
  db: Kysely<Database>,
  list: ContentList,
  recordId: number,
): Promise<StoredDraft | undefined> {
  const row = await selectDrafts(db)
    .where("list", "=", list)
    .where("record_id", "=", recordId)
    .executeTakeFirst();
  return row && toDraft(row);
}

/** Which records of a list have a draft, and when each is to be published. */
export async function listedDrafts(
  db: Kysely<Database>,
  list: ContentList,
): Promise<ListedDraft[]> {
  const rows = await db
    .selectFrom("content_drafts")
    .select(["record_id", "publish_at"])
    .where("list", "=", list)
    .execute();
  return rows.map((row) => ({ recordId: row.record_id, publishAt: row.publish_at }));
}

export async function findDraftById(
  db: Kysely<Database>,
  id: number,
): Promise<StoredDraft | undefined> {
  const row = await selectDrafts(db).where("id", "=", id).executeTakeFirst();
  return row && toDraft(row);
}

export interface DraftWrite {
  list: ContentList;
  recordId: number;
  fields: EntryFields;
  baseVersion: number;
  author: Author;
  at: string;
}

/**
 * Saves a record's draft: the first save makes it, a later one replaces its
 * text and base version and clears a conflict the publisher recorded (the
 * editor has seen it). A time it is scheduled for stays.
 */
export async function upsertDraft(db: Kysely<Database>, draft: DraftWrite): Promise<StoredDraft> {
  const written = {
    fields: JSON.stringify(draft.fields),
    base_version: draft.baseVersion,
    user_id: draft.author.userId,
    author: draft.author.recordedAs,
    conflict: null,
    updated_at: draft.at,
  };
  const row = await db
    .insertInto("content_drafts")
    .values({ ...written, list: draft.list, record_id: draft.recordId, created_at: draft.at })
    .onConflict((c) => c.columns(["list", "record_id"]).doUpdateSet(written))
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDraft(row);
}

/**
 * Moves a record's draft on to version `to` when it was based on `from`:
 * hiding or showing a record changes no text, so a draft begun before it is
 * still a draft of what the site has.
 */
export async function rebaseDraft(
  db: Kysely<Database>,
  list: ContentList,
  recordId: number,
  from: number,
  to: number,
): Promise<void> {
  await db
    .updateTable("content_drafts")
    .set({ base_version: to })
    .where("list", "=", list)
    .where("record_id", "=", recordId)
    .where("base_version", "=", from)
    .execute();
}

/** Removes the draft; whether there was one. */
export async function deleteDraft(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom("content_drafts").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Sets (or, with null, clears) the time a draft is to be published at; the draft, or none. */
export async function setPublishTime(
  db: Kysely<Database>,
  id: number,
  publishAt: string | null,
  scheduledBy: string | null,
): Promise<StoredDraft | undefined> {
  const row = await db
    .updateTable("content_drafts")
    .set({ publish_at: publishAt, scheduled_by: scheduledBy, conflict: null })
    .where("id", "=", id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toDraft(row);
}

/** The scheduled drafts whose time has come, soonest first. */
export async function dueDraftIds(db: Kysely<Database>, now: string): Promise<number[]> {
  const rows = await db
    .selectFrom("content_drafts")
    .select("id")
    .where("publish_at", "<=", now)
    .orderBy("publish_at")
    .execute();
  return rows.map((row) => row.id);
}

/** When the next scheduled draft falls due, or null when none is scheduled. */
export async function nextPublishTime(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom("content_drafts")
    .select((eb) => eb.fn.min("publish_at").as("at"))
    .executeTakeFirst();
  return row?.at ?? null;
}

/**
 * Takes a due draft for publishing, inside the publishing transaction: the
 * statement that clears its time, if it still has the time it was read
 * with, is the claim. An instance that tries the same draft at the same
 * moment waits for this transaction on the row, then finds it gone (or its
 * time cleared) and takes nothing; if the publishing fails, the transaction
 * rolls back and the draft is due again. The draft is answered as it was
 * scheduled.
 */
export async function claimScheduled(
  db: Kysely<Database>,
  id: number,
  now: string,
): Promise<StoredDraft | undefined> {
  const row = await selectDrafts(db)
    .where("id", "=", id)
    .where("publish_at", "<=", now)
    .executeTakeFirst();
  if (!row?.publish_at) return undefined;
  const claimed = await db
    .updateTable("content_drafts")
    .set({ publish_at: null })
    .where("id", "=", id)
    .where("publish_at", "=", row.publish_at)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1 ? toDraft(row) : undefined;
}

/**
 * Records why a scheduled draft was not published, and takes it off the
 * schedule, if it is still due at the time it was claimed for (another
 * instance may have recorded it first); whether this call recorded it.
 */
export async function holdScheduled(
  db: Kysely<Database>,
  id: number,
  publishAt: string,
  reason: string,
): Promise<boolean> {
  const result = await db
    .updateTable("content_drafts")
    .set({ publish_at: null, conflict: reason })
    .where("id", "=", id)
    .where("publish_at", "=", publishAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
