/**
 * Content: what the site shows (the six lists, the site facts, the Insight
 * archive's published issues), read once and served from memory; its
 * console (editing, versions, pictures) and the import. What the rest of
 * the server may use of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { listenForChanges, SOLO_FEED } from "./change-feed.ts";
import contentRoutes from "./console.ts";
import { SiteContent } from "./site-content.ts";

export default fp(
  async function content(app: FastifyInstance, { config, database }: AdminAreaOptions) {
    const feed = config.DATABASE_URL
      ? await listenForChanges(config.DATABASE_URL, () => siteContent.changed(), app.log)
      : SOLO_FEED;
    const siteContent = new SiteContent(database, feed);
    app.decorate("content", siteContent);
    app.addHook("onClose", () => feed.close());
    await app.register(contentRoutes, { config, database });
  },
  { name: "content", dependencies: ["console"] },
);

export { type ChangeFeed, listenForChanges, SOLO_FEED } from "./change-feed.ts";
export { type ContentChanges, type ContentPart, later } from "./content-changes.ts";
export { findVersion, listVersions, recordVersion } from "./content-versions.ts";
export { importContent } from "./import.ts";
export { seedOnce } from "./seed.ts";
export { SiteContent } from "./site-content.ts";
