import type { Kysely } from "kysely";
import {
  CATEGORIES_WITH_IMAGES,
  type ContentCategory,
  type ContentItem,
  type TeamMember,
} from "../../shared/content.ts";
import type { Database } from "./schema.ts";

export async function listTeam(db: Kysely<Database>): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("team_members")
    .select(["fullname", "title", "image_path", "bio"])
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map(({ image_path, ...rest }) => ({ ...rest, imagePath: image_path }));
}

export async function listItems(
  db: Kysely<Database>,
  category: ContentCategory,
): Promise<ContentItem[]> {
  const rows = await db
    .selectFrom("content_items")
    .select(["name", "description", "image_path"])
    .where("category", "=", category)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const withImages = CATEGORIES_WITH_IMAGES.includes(category);
  return rows.map(({ name, description, image_path }) =>
    withImages && image_path ? { name, description, imagePath: image_path } : { name, description },
  );
}
