/**
 * Loads the seed content from content/ into an empty site. Each part runs
 * once per database: a marker row, inserted in the same transaction, records
 * that it happened, so content the firm later edits or deletes is never
 * restored. The case studies, their outcome figures, the site facts and the
 * privacy notice (a site fact) have their own markers because they came
 * later: a database seeded before them still gets them once.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import { CAPABILITIES } from "../../../shared/capabilities.ts";
import { CONTENT_CATEGORIES } from "../../../shared/content-categories.ts";
import { siteFactsSchema } from "../../../shared/site-facts.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { PARAGRAPH_BREAK } from "./queries.ts";
import { insertMissingFacts } from "./site-facts-rows.ts";

export const SEED_MARKER = "seeded_at";
const CASE_STUDIES_MARKER = "case_studies_seeded_at";
const SITE_FACTS_MARKER = "site_facts_seeded_at";
const PRIVACY_NOTICE_MARKER = "privacy_notice_seeded_at";
const OUTCOMES_MARKER = "case_study_outcomes_seeded_at";

const text = z.string().trim().min(1);
const teamFile = z.array(
  z.strictObject({ fullname: text, title: text, imagePath: text, bio: text }),
);
const item = z.strictObject({
  name: text,
  description: text,
  imagePath: text.optional(),
  menuLine: text.optional(),
});
/** The capabilities' names are fixed (`src/shared/capabilities.ts`); the file gives their text. */
const itemsFile = z
  .record(z.enum(CONTENT_CATEGORIES), z.array(item))
  .refine(
    (items) =>
      [...items.capabilities.map((c) => c.name)].sort().join() === [...CAPABILITIES].sort().join(),
    {
      path: ["capabilities"],
      message: `must describe exactly these capabilities: ${CAPABILITIES.join(", ")}`,
    },
  );

const paragraphs = z.array(text).min(1);
const caseStudiesFile = z.array(
  z.strictObject({
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase words joined by -"),
    title: text,
    summary: text,
    opportunity: paragraphs,
    solution: paragraphs,
    work: paragraphs,
    outcomeFigure: text,
    outcomeLabel: text,
  }),
);

/**
 * site.json also holds the build's constants (the firm's names, its method):
 * only the facts are read. The privacy notice is Markdown, in privacy.md.
 */
const siteFile = siteFactsSchema.omit({ privacyNotice: true }).strip();

/**
 * The most a content file may be. The seed's are a few kilobytes; a file
 * given to the import is read whole, so one far larger is refused before
 * it is read rather than parsed into memory.
 */
export const CONTENT_FILE_MAX_BYTES = 1024 * 1024;

/** A content file's text, refused when it is larger than CONTENT_FILE_MAX_BYTES. */
async function readText(file: string): Promise<string> {
  const handle = await open(file);
  try {
    const bytes = Buffer.alloc(CONTENT_FILE_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    if (bytesRead > CONTENT_FILE_MAX_BYTES) {
      throw new Error(
        `Invalid seed file ${file}: it is larger than ${CONTENT_FILE_MAX_BYTES / 1024 / 1024} MB, the most a content file may be.`,
      );
    }
    return bytes.toString("utf8", 0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(JSON.parse(await readText(file)));
  if (!parsed.success)
    throw new Error(`Invalid seed file ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

async function readFacts(contentDir: string) {
  const file = join(contentDir, "privacy.md");
  const notice = siteFactsSchema.shape.privacyNotice.safeParse(await readText(file));
  if (!notice.success) {
    throw new Error(`Invalid seed file ${file}: ${z.prettifyError(notice.error)}`);
  }
  const site = await readJson(join(contentDir, "site.json"), siteFile);
  return { ...site, privacyNotice: notice.data };
}

/** Inserts the marker `key`; false when another run inserted it first. */
async function claim(trx: Transaction<Database>, key: string, now: string): Promise<boolean> {
  const marker = await trx
    .insertInto("site_meta")
    .values({ key, value: now, created_at: now, updated_at: now })
    .onConflict((c) => c.column("key").doNothing())
    .returning("key")
    .executeTakeFirst();
  return marker !== undefined;
}

/** The content files, checked: also read by the import (cli/content-import.ts). */
export async function readContentFiles(contentDir: string) {
  return {
    team: await readJson(join(contentDir, "team.json"), teamFile),
    items: await readJson(join(contentDir, "items.json"), itemsFile),
    caseStudies: await readJson(join(contentDir, "case-studies.json"), caseStudiesFile),
    facts: await readFacts(contentDir),
  };
}

/** Returns true when this call seeded anything. */
export async function seedOnce(db: Kysely<Database>, contentDir: string): Promise<boolean> {
  const { team, items, caseStudies, facts } = await readContentFiles(contentDir);
  const now = nowIso();
  const stamps = { created_at: now, updated_at: now };

  return inTransaction(db, async (trx) => {
    const site = await claim(trx, SEED_MARKER, now);
    if (site && team.length > 0) {
      await trx
        .insertInto("team_members")
        .values(
          team.map((member, position) => ({
            position,
            fullname: member.fullname,
            title: member.title,
            image_path: member.imagePath,
            bio: member.bio,
            ...stamps,
          })),
        )
        .onConflict((c) => c.column("fullname").doNothing())
        .execute();
    }
    const rows = CONTENT_CATEGORIES.flatMap((category) =>
      items[category].map((item, position) => ({
        category,
        position,
        name: item.name,
        description: item.description,
        image_path: item.imagePath ?? null,
        menu_line: item.menuLine ?? "",
        ...stamps,
      })),
    );
    if (site && rows.length > 0) {
      await trx
        .insertInto("content_items")
        .values(rows)
        .onConflict((c) => c.columns(["category", "name"]).doNothing())
        .execute();
    }

    const studies = await claim(trx, CASE_STUDIES_MARKER, now);
    if (studies && caseStudies.length > 0) {
      await trx
        .insertInto("case_studies")
        .values(
          caseStudies.map((study, position) => ({
            position,
            slug: study.slug,
            title: study.title,
            summary: study.summary,
            opportunity: study.opportunity.join(PARAGRAPH_BREAK),
            solution: study.solution.join(PARAGRAPH_BREAK),
            work: study.work.join(PARAGRAPH_BREAK),
            outcome_figure: study.outcomeFigure,
            outcome_label: study.outcomeLabel,
            ...stamps,
          })),
        )
        .onConflict((c) => c.column("slug").doNothing())
        .execute();
    }

    // A study seeded before outcomes existed gets its figure, unless the firm gave it one.
    const outcomes = await claim(trx, OUTCOMES_MARKER, now);
    if (outcomes) {
      for (const study of caseStudies) {
        await trx
          .updateTable("case_studies")
          .set({ outcome_figure: study.outcomeFigure, outcome_label: study.outcomeLabel })
          .where("slug", "=", study.slug)
          .where("outcome_figure", "=", "")
          .where("outcome_label", "=", "")
          .execute();
      }
    }

    const siteFacts = await claim(trx, SITE_FACTS_MARKER, now);
    const privacyNotice = await claim(trx, PRIVACY_NOTICE_MARKER, now);
    if (siteFacts || privacyNotice) await insertMissingFacts(trx, facts, now);
    return site || studies || outcomes || siteFacts || privacyNotice;
  });
}
