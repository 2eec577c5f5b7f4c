/**
 * Every version of every content record (content_versions): the whole record
 * as JSON, with who wrote it and when. Rows are only added; restoring an old
 * version writes its data again as the newest.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

export interface VersionRow {
  version: number;
  author: string;
  createdAt: string;
  /** The record at this version, as it was written. */
  data: unknown;
}

export interface NewVersion {
  entity: string;
  key: string;
  version: number;
  data: unknown;
  userId: number | null;
  author: string;
  at: string;
}

/**
 * Adds a version. `ifAbsent` records the version a record had before its
 * first versioned change (the seed's), unless that version is recorded already.
 */
export async function recordVersion(
  db: Kysely<Database>,
  version: NewVersion,
  { ifAbsent = false } = {},
): Promise<void> {
  const insert = db.insertInto("content_versions").values({
    entity: version.entity,
    entity_key: version.key,
    version: version.version,
    data: JSON.stringify(version.data),
    user_id: version.userId,
    author: version.author,
    created_at: version.at,
  });
  await (ifAbsent
    ? insert.onConflict((c) => c.columns(["entity", "entity_key", "version"]).doNothing())
    : insert
  ).execute();
}

/** Who wrote the version a record had before its first versioned change. */
export const BASELINE_AUTHOR = "seed";

export interface Change {
  entity: string;
  key: string;
  /** The version the change starts from: its number, the record then, and when it was written. */
  from: { version: number; data: unknown; at: string };
  /** The new version (from.version + 1): the record now, who wrote it and when. */
  to: { data: unknown; userId: number | null; author: string; at: string };
}

/**
 * Records a change: the version it starts from, when this is the record's
 * first versioned change, then the new version. The new version's unique
 * (entity, key, version) refuses a second change from the same version.
 */
export async function recordChange(db: Kysely<Database>, change: Change): Promise<void> {
  const { entity, key, from, to } = change;
  await recordVersion(
    db,
    {
      entity,
      key,
      version: from.version,
      data: from.data,
      userId: null,
      author: BASELINE_AUTHOR,
      at: from.at,
    },
    { ifAbsent: true },
  );
  await recordVersion(db, { entity, key, version: from.version + 1, ...to });
}

function toVersion(row: {
  version: number;
  author: string;
  created_at: string;
  data: string;
}): VersionRow {
  return {
    version: row.version,
    author: row.author,
    createdAt: row.created_at,
    data: JSON.parse(row.data),
  };
}

/** A record's versions, newest first. */
export async function listVersions(
  db: Kysely<Database>,
  entity: string,
  key: string,
): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom("content_versions")
    .select(["version", "author", "created_at", "data"])
    .where("entity", "=", entity)
    .where("entity_key", "=", key)
    .orderBy("version", "desc")
    .execute();
  return rows.map(toVersion);
}

export async function findVersion(
  db: Kysely<Database>,
  entity: string,
  key: string,
  version: number,
): Promise<VersionRow | undefined> {
  const row = await db
    .selectFrom("content_versions")
    .select(["version", "author", "created_at", "data"])
    .where("entity", "=", entity)
    .where("entity_key", "=", key)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? toVersion(row) : undefined;
}

/** The newest version recorded for a record; 0 when none is. */
export async function latestVersion(
  db: Kysely<Database>,
  entity: string,
  key: string,
): Promise<number> {
  const row = await db
    .selectFrom("content_versions")
    .select((eb) => eb.fn.max("version").as("version"))
    .where("entity", "=", entity)
    .where("entity_key", "=", key)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}
