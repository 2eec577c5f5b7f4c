/**
 * Content: what the site shows (the six lists, the site facts, the Insight
 * archive's published issues), read once and served from memory; its
 * console (editing, versions, drafts and their previews, pictures), the
 * publisher of scheduled drafts, and the import. What the rest of the
 * server may use of this feature.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { DRAFT_TEXTS, PREVIEW_PARAMETER } from "../../../shared/admin/content-drafts.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import type { ContentReader } from "../../../shared/page-context.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { liveSessionUser } from "../../platform/console/sessions.ts";
import type { ConsoleUser } from "../../platform/console/users.ts";
import { listenForChanges, SOLO_FEED } from "./change-feed.ts";
import contentRoutes from "./console.ts";
import { DRAFT_ROLE } from "./draft-console.ts";
import { draftReader } from "./draft-preview.ts";
import { findDraftById } from "./draft-rows.ts";
import { PREVIEW_PASS_COOKIE, previewSigner } from "./preview-link.ts";
import { ScheduledPublisher } from "./scheduled-publisher.ts";
import type { ContentSettings } from "./server-settings.ts";
import { SiteContent } from "./site-content.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The content a public page is to be rendered with for a draft's
     * preview: when the request carries a preview link's token that is
     * signed, unexpired and names a draft, and the preview pass of a live
     * console session whose person may still work on drafts; otherwise
     * null, and the page is the public one. A signed link with a signed
     * pass whose session has ended, or whose person may no longer preview,
     * is refused (403) with the reason: the pass is checked at each use.
     */
    draftPreview(request: FastifyRequest): Promise<ContentReader | null>;
    /** Publishes the drafts whose time has come now, rather than at the next poll. */
    scheduledPublishing: { wake(): void };
  }
}

export interface ContentOptions extends AdminAreaOptions<ContentSettings> {
  /** The server's signing secret: preview links and passes are signed with it. */
  secret: string;
  /** The clock scheduled times and preview links are measured with (epoch ms). */
  now?: () => number;
}

export default fp(
  async function content(
    app: FastifyInstance,
    { config, database, secret, now = Date.now }: ContentOptions,
  ) {
    const feed = config.DATABASE_URL
      ? await listenForChanges(config.DATABASE_URL, () => siteContent.changed(), app.log)
      : SOLO_FEED;
    const siteContent = new SiteContent(database, feed);
    app.decorate("content", siteContent);
    app.addHook("onClose", () => feed.close());

    const signer = previewSigner(secret);
    /** Why the pass's person may not see a draft now, or null when they may. */
    async function passRefusal(holder: ConsoleUser | undefined): Promise<string | null> {
      if (!holder) return DRAFT_TEXTS.previewSessionEnded;
      if (!hasRole(holder.role, DRAFT_ROLE)) return DRAFT_TEXTS.previewRoleTooWeak;
      if (!holder.secondFactor && (await app.secondFactorRequired())) {
        return DRAFT_TEXTS.previewSecondFactor;
      }
      return null;
    }
    app.decorate("draftPreview", async (request: FastifyRequest) => {
      const token = (request.query as Record<string, unknown> | undefined)?.[PREVIEW_PARAMETER];
      const pass = request.cookies[PREVIEW_PASS_COOKIE];
      if (typeof token !== "string" || !pass) return null;
      const draftId = signer.draftOf(token, now());
      const sessionId = signer.sessionOf(pass);
      if (draftId === null || sessionId === null) return null;
      const holder = await liveSessionUser(database.db, sessionId, app.sessionLimits);
      const refusal = await passRefusal(holder);
      if (refusal) throw app.httpErrors.forbidden(refusal);
      const draft = await findDraftById(database.db, draftId);
      return draft ? draftReader(siteContent, database.db, draft) : null;
    });

    const publisher = new ScheduledPublisher({
      content: siteContent,
      db: database.db,
      log: app.log,
      pollMs: config.SCHEDULED_PUBLISH_POLL_MS,
      now,
    });
    app.decorate("scheduledPublishing", { wake: () => publisher.wake() });
    app.addHook("onReady", async () => publisher.start());
    app.addHook("onClose", async () => publisher.stop());

    await app.register(contentRoutes, {
      config,
      database,
      drafts: { signer, now, onScheduled: () => publisher.wake() },
    });
  },
  { name: "content", dependencies: ["console"] },
);

export { type ChangeFeed, listenForChanges, SOLO_FEED } from "./change-feed.ts";
export { type ContentChanges, type ContentPart, later } from "./content-changes.ts";
export { findVersion, listVersions, recordVersion } from "./content-versions.ts";
export { readerWith } from "./draft-preview.ts";
export { importContent } from "./import.ts";
export { PUBLISHER_ACTOR } from "./scheduled-publisher.ts";
export { CONTENT_FILE_MAX_BYTES, seedOnce } from "./seed.ts";
export { SiteContent } from "./site-content.ts";
