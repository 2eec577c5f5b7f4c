/**
 * A sent issue's page in the Insight archive, after the mail went out: an
 * editor corrects its title, summary and body (each correction a version,
 * any of which can be restored), or withdraws it from the archive and puts
 * it back. The mail already sent never changes. The console's panel, its
 * client and the server's routes use these definitions.
 */
import { z } from "zod";
import { idParamsSchema, rowIdSchema } from "../row-id.ts";
import { ADMIN_API } from "./auth.ts";
import { issueDetailSchema, issueDraftSchema } from "./newsletter.ts";
import { loadedVersionSchema } from "./record-version.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/newsletter`;

/** An issue's id, or the route's parameter for it. */
type Id = number | ":id";

/** The server registers these with ":id" (and ":version"); the console calls them with numbers. */
export const ARCHIVE_PATHS = {
  /** PUT: the corrected title, summary and body. */
  page: (id: Id) => `${BASE}/${id}/archive`,
  versions: (id: Id) => `${BASE}/${id}/archive/versions`,
  restore: (id: Id, version: number | ":version") =>
    `${BASE}/${id}/archive/versions/${version}/restore`,
  withdraw: (id: Id) => `${BASE}/${id}/archive/withdraw`,
  putBack: (id: Id) => `${BASE}/${id}/archive/put-back`,
} as const;

/** What content_versions names an issue's archive page by (its key is the issue's id). */
export const ARCHIVE_PAGE_ENTITY = "issue-archive-page";

/** The text of the page, under the rules the draft was written to; the slug, its address, stays. */
export const archivePageSchema = issueDraftSchema.pick({ title: true, summary: true, body: true });
export type ArchivePage = z.infer<typeof archivePageSchema>;

/** A correction names the version it was made from; a stale one is refused with 409. */
export const archiveCorrectionSchema = archivePageSchema.extend({ version: loadedVersionSchema });
export type ArchiveCorrection = z.infer<typeof archiveCorrectionSchema>;

/** Restoring an earlier version names the version the editor loaded, as a correction does. */
export const archiveRestoreSchema = z.strictObject({ version: loadedVersionSchema });

export const archiveVersionParamsSchema = idParamsSchema.extend({ version: rowIdSchema });

export const archiveVersionSchema = archivePageSchema.extend({
  version: z.number().int(),
  author: z.string(),
  createdAt: z.string(),
});
export type ArchiveVersion = z.infer<typeof archiveVersionSchema>;

/** Newest first; the last is the page as the issue was sent. */
export const archiveVersionsSchema = z.object({ versions: z.array(archiveVersionSchema) });

export const ARCHIVE_TEXTS = {
  notSent:
    "Only a sent issue's archive page can be corrected or withdrawn. While its copies are still going out, pause or cancel the send instead.",
  stale:
    "Someone corrected this page after you opened it. Your text is kept here; copy what you need, then reload to see their version.",
  staleAction:
    "Someone corrected this page after you opened it. Reload to see it as it is now, then try again.",
  notWithdrawn: "This issue is in the archive already.",
  alreadyWithdrawn: "This issue was withdrawn from the archive already.",
  noSuchVersion: "There is no such version of this page.",
  withdrawConfirm:
    "Withdraw this issue from the archive? Its page will answer that it is gone, and it leaves /insight, the feed and the sitemap. The e-mail already sent is not affected. You can put it back later.",
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * A sent issue's archive page: corrected, its versions restored, withdrawn or put back.
 */
export const ARCHIVE_CONSOLE_ROUTES = {
  "newsletterArchive.correct": {
    method: "PUT",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.page(id),
    body: archiveCorrectionSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.versions": {
    method: "GET",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.versions(id),
    status: 200,
    response: archiveVersionsSchema,
  },
  "newsletterArchive.restore": {
    method: "POST",
    path: ({ id, version }: RecordId & { version: number }) => ARCHIVE_PATHS.restore(id, version),
    body: archiveRestoreSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.withdraw": {
    method: "POST",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.withdraw(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.putBack": {
    method: "POST",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.putBack(id),
    status: 200,
    response: issueDetailSchema,
  },
} as const satisfies RouteSlice;
