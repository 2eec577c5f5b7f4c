/**
 * The console's routes for a sent issue's archive page: viewers read its
 * versions; editors correct it, restore an earlier version, withdraw it from
 * the archive and put it back. Each write goes through app.content.edit, so
 * the archive's pages, feed and sitemap change on every instance once it
 * commits, and writes its audit entry in the same transaction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Transaction } from "kysely";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
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
import type { Database } from "../../platform/db/schema.ts";
import {
  ArchiveRefusal,
  correctPage,
  earlierPage,
  issueDetail,
  pageVersions,
  setWithdrawn,
} from "./archive-page.ts";
import { undescribedPicturesRefusal } from "./picture-descriptions.ts";
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

  /**
   * Runs a write of the archive with its audit entry, then answers with the
   * issue as it now is, or with the refusal that stopped it (nothing written).
   */
  async function archiveWrite(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    write: (
      trx: Transaction<Database>,
    ) => Promise<{ action: AuditAction; detail?: Record<string, unknown> }>,
  ) {
    try {
      await app.content.edit(async (trx) => {
        const { action, detail } = await write(trx);
        await app.audit(trx, request, action, targetOf(id), detail);
      });
    } catch (error) {
      if (!(error instanceof ArchiveRefusal)) throw error;
      return reply.code(error.status).send({ message: error.message });
    }
    return issueDetail(db, id);
  }

  routes.get(
    ARCHIVE_PATHS.versions(":id"),
    {
      schema: {
        params: issueIdSchema,
        response: { 200: archiveVersionsSchema, 404: messageSchema },
      },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      try {
        return { versions: await pageVersions(db, request.params.id) };
      } catch (error) {
        if (!(error instanceof ArchiveRefusal)) throw error;
        return reply.code(404).send({ message: error.message });
      }
    },
  );

  routes.put(
    ARCHIVE_PATHS.page(":id"),
    {
      schema: { params: issueIdSchema, body: archiveCorrectionSchema, response: answer },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { version, ...page } = request.body;
      const undescribed = undescribedPicturesRefusal(page.body);
      if (undescribed) return reply.code(400).send(undescribed);
      return archiveWrite(request, reply, id, async (trx) => {
        const corrected = await correctPage(trx, id, {
          loadedVersion: version,
          page,
          author: authorOf(request),
          render,
        });
        return { action: "issue-page-corrected", detail: corrected };
      });
    },
  );

  routes.post(
    ARCHIVE_PATHS.restore(":id", ":version"),
    {
      schema: { params: archiveVersionParamsSchema, body: archiveRestoreSchema, response: answer },
      config: { role: "editor" },
    },
    (request, reply) => {
      const { id, version: from } = request.params;
      return archiveWrite(request, reply, id, async (trx) => {
        const restored = await correctPage(trx, id, {
          loadedVersion: request.body.version,
          page: await earlierPage(trx, id, from),
          author: authorOf(request),
          render,
          staleMessage: ARCHIVE_TEXTS.staleAction,
        });
        return { action: "issue-page-restored", detail: { from, ...restored } };
      });
    },
  );

  for (const [path, withdrawn, action] of [
    [ARCHIVE_PATHS.withdraw(":id"), true, "issue-withdrawn"],
    [ARCHIVE_PATHS.putBack(":id"), false, "issue-put-back"],
  ] as const) {
    routes.post(
      path,
      { schema: { params: issueIdSchema, response: answer }, config: { role: "editor" } },
      (request, reply) =>
        archiveWrite(request, reply, request.params.id, async (trx) => {
          await setWithdrawn(trx, request.params.id, withdrawn);
          return { action };
        }),
    );
  }
}
