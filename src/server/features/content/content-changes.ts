/**
 * When each part of the public content last changed, for the sitemap's
 * lastmod and the feed's updated: a list's newest write (records are hidden,
 * not deleted, and hiding one writes it) or its last reordering (an "order"
 * version), the facts' last save, the site's set-up, and the last time an
 * issue left the archive (its send cancelled, or it was withdrawn), came back
 * to it, or had its page corrected.
 */
import type { Kysely } from "kysely";
import { ORDER_ENTITY } from "../../../shared/admin/content.ts";
import type { ContentCategory } from "../../../shared/content-categories.ts";
import type { Database } from "../../platform/db/schema.ts";
import { SEED_MARKER } from "./seed.ts";

/** A part of the content a page shows: the leaders, a list of items, the case studies, the facts. */
export type ContentPart = "team" | ContentCategory | "case-studies" | "facts";

export interface ContentChanges {
  /** ISO 8601, per part that has any content. */
  parts: Partial<Record<ContentPart, string>>;
  /** When the site was set up (the seed's first run); null before it. */
  setUpAt: string | null;
  /**
   * When the archive last changed other than by a new issue: an issue left it
   * (cancelled or withdrawn), came back, or had its page corrected; null if
   * none of these ever happened.
   */
  archiveChangedAt: string | null;
}

/** The later of two ISO 8601 times (either may be missing). */
export function later(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

export async function readContentChanges(db: Kysely<Database>): Promise<ContentChanges> {
  const newest = (table: "team_members" | "case_studies" | "site_facts") =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.max("updated_at").as("at"))
      .executeTakeFirst();
  const [team, caseStudies, facts, items, orders, setUp, cancelled, archiveChanged] =
    await Promise.all([
      newest("team_members"),
      newest("case_studies"),
      newest("site_facts"),
      db
        .selectFrom("content_items")
        .select((eb) => ["category", eb.fn.max("updated_at").as("at")])
        .groupBy("category")
        .execute(),
      db
        .selectFrom("content_versions")
        .select((eb) => ["entity_key", eb.fn.max("created_at").as("at")])
        .where("entity", "=", ORDER_ENTITY)
        .groupBy("entity_key")
        .execute(),
      db
        .selectFrom("site_meta")
        .select("created_at")
        .where("key", "=", SEED_MARKER)
        .executeTakeFirst(),
      db
        .selectFrom("issues")
        .select((eb) => eb.fn.max("updated_at").as("at"))
        .where("status", "=", "cancelled")
        .where("started_at", "is not", null)
        .executeTakeFirst(),
      db
        .selectFrom("issues")
        .select((eb) => eb.fn.max("archive_changed_at").as("at"))
        .executeTakeFirst(),
    ]);
  const parts: Record<string, string | undefined> = {
    team: team?.at,
    "case-studies": caseStudies?.at,
    facts: facts?.at,
  };
  for (const row of items) parts[row.category] = row.at;
  for (const row of orders) parts[row.entity_key] = later(parts[row.entity_key], row.at);
  return {
    parts: Object.fromEntries(
      Object.entries(parts).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ) as ContentChanges["parts"],
    setUpAt: setUp?.created_at ?? null,
    archiveChangedAt: later(cancelled?.at ?? undefined, archiveChanged?.at ?? undefined) ?? null,
  };
}
