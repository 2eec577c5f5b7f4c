/** §3: the content lists the site receives from the API. */

export const CONTENT_CATEGORIES = ["ethos", "industries", "techneeds", "capabilities"] as const;
export type ContentCategory = (typeof CONTENT_CATEGORIES)[number];

/** Categories whose items carry an image under images/items/. */
export const CATEGORIES_WITH_IMAGES: readonly ContentCategory[] = ["industries", "techneeds"];

export interface TeamMember {
  fullname: string;
  title: string;
  imagePath: string;
  bio: string;
}

export interface ContentItem {
  name: string;
  description: string;
  imagePath?: string;
}
