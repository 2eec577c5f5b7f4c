/**
 * Loads the seed content from content/ into an empty site. It runs once per
 * database: a marker row, inserted in the same transaction, records that the
 * seed happened, so content the firm later edits or deletes is never restored.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { z } from "zod";
import { CAPABILITIES } from "../../shared/capabilities.ts";
import { CONTENT_CATEGORIES } from "../../shared/content.ts";
import { type Database, nowIso } from "./schema.ts";

const SEED_MARKER = "seeded_at";

const text = z.string().trim().min(1);
const teamFile = z.array(
  z.strictObject({ fullname: text, title: text, imagePath: text, bio: text }),
);
const item = z.strictObject({ name: text, description: text, imagePath: text.optional() });
/** The capabilities' names are the spec's (shared/capabilities.ts); the file gives their text. */
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

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(JSON.parse(await readFile(file, "utf8")));
  if (!parsed.success)
    throw new Error(`Invalid seed file ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Returns true when this call seeded the database. */
export async function seedOnce(db: Kysely<Database>, contentDir: string): Promise<boolean> {
  const team = await readJson(join(contentDir, "team.json"), teamFile);
  const items = await readJson(join(contentDir, "items.json"), itemsFile);
  const now = nowIso();
  const stamps = { created_at: now, updated_at: now };

  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto("site_meta")
      .values({ key: SEED_MARKER, value: now, ...stamps })
      .onConflict((c) => c.column("key").doNothing())
      .returning("key")
      .executeTakeFirst();
    if (!marker) return false;

    if (team.length > 0) {
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
        ...stamps,
      })),
    );
    if (rows.length > 0) {
      await trx
        .insertInto("content_items")
        .values(rows)
        .onConflict((c) => c.columns(["category", "name"]).doNothing())
        .execute();
    }
    return true;
  });
}
