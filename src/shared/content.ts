/** §3: the content lists the site receives from the API. */
import type { z } from "zod";
import type { contentItemSchema, teamMemberSchema } from "./schemas.ts";

export const CONTENT_CATEGORIES = ["ethos", "industries", "techneeds", "capabilities"] as const;
export type ContentCategory = (typeof CONTENT_CATEGORIES)[number];

/** Categories whose items carry an image under images/items/. */
export const CATEGORIES_WITH_IMAGES: readonly ContentCategory[] = ["industries", "techneeds"];

export type TeamMember = z.infer<typeof teamMemberSchema>;
export type ContentItem = z.infer<typeof contentItemSchema>;
