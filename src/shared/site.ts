/** Site-wide facts (firm name, mission, links), edited in content/site.json. */
import site from "../../content/site.json" with { type: "json" };

export const SITE = site;
