/** The uploaded pictures (media): where the original is kept and which files were made from it. */
import type { Kysely } from "kysely";
import { type Database, nowIso } from "../db/schema.ts";
import type { StoredImage } from "./images.ts";

export async function recordMedia(
  db: Kysely<Database>,
  image: StoredImage,
  userId: number | null,
): Promise<number> {
  const row = await db
    .insertInto("media")
    .values({
      original_path: image.originalPath,
      content_type: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      variants: JSON.stringify(image.variants),
      user_id: userId,
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
