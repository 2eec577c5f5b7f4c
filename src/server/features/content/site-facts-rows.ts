/**
 * The site facts (site_facts): one row per fact. The five are edited as one
 * record, so every row carries the record's version, and a save writes them
 * all with the next one.
 */
import type { Kysely } from "kysely";
import { SITE_FACT_KEYS, type SiteFacts } from "../../../shared/site-facts.ts";
import type { Database } from "../../platform/db/schema.ts";

/** The facts with the version they are at, as the console edits them. */
export interface StoredFacts {
  facts: SiteFacts;
  version: number;
  /** When they were last written (the newest row's updated_at). */
  updatedAt: string;
}

/** The facts as stored; throws when one is missing (the seed adds them all). */
export async function readStoredFacts(db: Kysely<Database>): Promise<StoredFacts> {
  const rows = await db
    .selectFrom("site_facts")
    .select(["key", "value", "version", "updated_at"])
    .where("key", "in", [...SITE_FACT_KEYS])
    .execute();
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const missing = SITE_FACT_KEYS.filter((key) => !byKey.has(key));
  if (missing.length > 0) {
    throw new Error(
      `site_facts has no ${missing.join(", ")}: the seed (content/site.json) adds them`,
    );
  }
  const facts = Object.fromEntries(SITE_FACT_KEYS.map((key) => [key, byKey.get(key)])) as SiteFacts;
  const times = rows.map((row) => row.updated_at).sort();
  return {
    facts,
    version: Math.max(...rows.map((row) => row.version)),
    updatedAt: times.at(-1) ?? "",
  };
}

/** Writes every fact at `version`. The caller has made sure no other save took it. */
export async function writeSiteFacts(
  db: Kysely<Database>,
  facts: SiteFacts,
  version: number,
  now: string,
): Promise<void> {
  for (const key of SITE_FACT_KEYS) {
    await db
      .updateTable("site_facts")
      .set({ value: facts[key], version, updated_at: now })
      .where("key", "=", key)
      .execute();
  }
}

/** Adds the facts the table lacks, at version 1 (the seed); existing ones are kept. */
export async function insertMissingFacts(
  db: Kysely<Database>,
  facts: SiteFacts,
  now: string,
): Promise<void> {
  await db
    .insertInto("site_facts")
    .values(
      SITE_FACT_KEYS.map((key) => ({
        key,
        value: facts[key],
        version: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((c) => c.column("key").doNothing())
    .execute();
}
