/**
 * The public lists: what the API and the pages show, in the firm's order,
 * without the records the console has hidden. A draft's preview reads them
 * with one record's columns replaced by its draft's (`stand-in`).
 */
import type { Kysely } from "kysely";
import {
  CASE_STUDY_SECTIONS,
  type DatedCaseStudy,
  type ListedItem,
  type TeamMember,
} from "../../../shared/content.ts";
import {
  CATEGORIES_WITH_IMAGES,
  type ContentCategory,
} from "../../../shared/content-categories.ts";
import type { Database } from "../../platform/db/schema.ts";

/** A record's columns as its draft has them, read in place of the stored ones (a preview). */
export interface StandIn {
  id: number;
  columns: Readonly<Record<string, string>>;
}

/** The rows, with the stand-in's columns over its record's; the record's id is dropped. */
function withStandIn<Row extends { id: number }>(
  rows: Row[],
  standIn: StandIn | undefined,
): Omit<Row, "id">[] {
  return rows.map(({ id, ...row }) =>
    id === standIn?.id ? ({ ...row, ...standIn.columns } as Omit<Row, "id">) : row,
  );
}

export async function listTeam(db: Kysely<Database>, standIn?: StandIn): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("team_members")
    .select(["id", "fullname", "title", "image_path", "bio"])
    .where("hidden", "=", 0)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return withStandIn(rows, standIn).map(({ image_path, ...rest }) => ({
    ...rest,
    imagePath: image_path,
  }));
}

export async function listItems(
  db: Kysely<Database>,
  category: ContentCategory,
  standIn?: StandIn,
): Promise<ListedItem[]> {
  const rows = await db
    .selectFrom("content_items")
    .select(["id", "name", "description", "image_path", "menu_line"])
    .where("category", "=", category)
    .where("hidden", "=", 0)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const withImages = CATEGORIES_WITH_IMAGES.includes(category);
  return withStandIn(rows, standIn).map(({ name, description, image_path, menu_line }) => ({
    name,
    description,
    ...(withImages && image_path ? { imagePath: image_path } : {}),
    ...(menu_line ? { menuLine: menu_line } : {}),
  }));
}

/** A section's paragraphs are stored as one text, separated by blank lines. */
export const PARAGRAPH_BREAK = "\n\n";

export async function listCaseStudies(
  db: Kysely<Database>,
  standIn?: StandIn,
): Promise<DatedCaseStudy[]> {
  const rows = await db
    .selectFrom("case_studies")
    .select([
      "id",
      "slug",
      "title",
      "summary",
      ...CASE_STUDY_SECTIONS.map(({ key }) => key),
      "outcome_figure",
      "outcome_label",
      "created_at",
      "updated_at",
    ])
    .where("hidden", "=", 0)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return withStandIn(rows, standIn).map(
    ({ created_at, updated_at, outcome_figure, outcome_label, ...row }) => ({
      ...row,
      ...(outcome_figure ? { outcome: { figure: outcome_figure, label: outcome_label } } : {}),
      // PostgreSQL reads back a Date, SQLite the ISO string it stored.
      datePublished: new Date(created_at).toISOString(),
      dateModified: new Date(updated_at).toISOString(),
      opportunity: paragraphs(row.opportunity),
      solution: paragraphs(row.solution),
      work: paragraphs(row.work),
    }),
  );
}

function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}
