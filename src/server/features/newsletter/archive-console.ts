/**
 * The console's routes for a sent issue's archive page: viewers read its
 * versions; editors correct it, restore an earlier version, withdraw it from
 * the archive and put it back. Each write goes through app.content.edit, so
 * the archive's pages, feed and sitemap change on every instance once it
 * commits, and writes its audit entry in the same transaction.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { issueDetailSchema, issueIdSchema } from "../../../shared/admin/newsletter.ts";
import {
  ARCHIVE_PATHS,
  ARCHIVE_TEXTS,
  type ArchivePage,
  archiveCorrectionSchema,
  archiveRestoreSchema,
  archiveVersionParamsSchema,
  archiveVersionsSchema,
} from "../../../shared/admin/newsletter-archive.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { authorOf } from "../../platform/console/author.ts";
import {
  correctPage,
  earlierPage,
  issueDetail,
  pageVersions,
  setWithdrawn,
} from "./archive-page.ts";
import { requireDescribedPictures } from "./picture-descriptions.ts";
import { renderIssue } from "./render.ts";

const targetOf = (id: number) => `issue:${id}`;
const answer = {
  200: issueDetailSchema,
  400: fieldRefusalSchema,
  404: messageSchema,
  409: fieldRefusalSchema,
};

export default async function archiveRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The same renderer the send froze the page with; only its web HTML is kept.
  const render = (page: ArchivePage & { slug: string }) =>
    renderIssue(page, { origin: config.PUBLIC_ORIGIN }).webHtml;

  routes.get(
    ARCHIVE_PATHS.versions(":id"),
    {
      schema: {
        params: issueIdSchema,
        response: { 200: archiveVersionsSchema, 404: messageSchema },
      },
      config: { role: "viewer" },
    },
    async (request) => ({ versions: await pageVersions(db, request.params.id) }),
  );

  // Each write answers with the issue as it now is; a refusal (refuse.*) writes nothing.

  routes.put(
    ARCHIVE_PATHS.page(":id"),
    {
      schema: { params: issueIdSchema, body: archiveCorrectionSchema, response: answer },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      const { version, ...page } = request.body;
      requireDescribedPictures(page.body);
      await app.consoleWrite(request, "issue-page-corrected", (trx, audit) =>
        app.content.edit(async (edit) => {
          const corrected = await correctPage(edit, id, {
            loadedVersion: version,
            page,
            author: authorOf(request),
            render,
          });
          audit.subject = targetOf(id);
          audit.detail = corrected;
        }, trx),
      );
      return issueDetail(db, id);
    },
  );

  routes.post(
    ARCHIVE_PATHS.restore(":id", ":version"),
    {
      schema: { params: archiveVersionParamsSchema, body: archiveRestoreSchema, response: answer },
      config: { role: "editor" },
    },
    async (request) => {
      const { id, version: from } = request.params;
      await app.consoleWrite(request, "issue-page-restored", (trx, audit) =>
        app.content.edit(async (edit) => {
          const restored = await correctPage(edit, id, {
            loadedVersion: request.body.version,
            page: await earlierPage(edit, id, from),
            author: authorOf(request),
            render,
            staleMessage: ARCHIVE_TEXTS.staleAction,
          });
          audit.subject = targetOf(id);
          audit.detail = { from, ...restored };
        }, trx),
      );
      return issueDetail(db, id);
    },
  );

  for (const [path, withdrawn, action] of [
    [ARCHIVE_PATHS.withdraw(":id"), true, "issue-withdrawn"],
    [ARCHIVE_PATHS.putBack(":id"), false, "issue-put-back"],
  ] as const) {
    routes.post(
      path,
      { schema: { params: issueIdSchema, response: answer }, config: { role: "editor" } },
      async (request) => {
        const { id } = request.params;
        await app.consoleWrite(request, action, (trx, audit) =>
          app.content.edit(async (edit) => {
            await setWithdrawn(edit, id, withdrawn);
            audit.subject = targetOf(id);
          }, trx),
        );
        return issueDetail(db, id);
      },
    );
  }
}
