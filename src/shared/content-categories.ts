/** The categories of the site's content items. */
export const CONTENT_CATEGORIES = ["ethos", "industries", "techneeds", "capabilities"] as const;
export type ContentCategory = (typeof CONTENT_CATEGORIES)[number];

/** Categories whose items carry an image under images/items/. */
export const CATEGORIES_WITH_IMAGES: readonly ContentCategory[] = ["industries", "techneeds"];

/** Categories whose items the site's menu names one by one, each with a line of its own. */
export const CATEGORIES_IN_MENU = ["industries", "techneeds", "capabilities"] as const;
export type MenuCategory = (typeof CATEGORIES_IN_MENU)[number];

/** The longest name the console gives a content item (a capability's is an inquiry type too). */
export const ITEM_NAME_MAX = 120;
