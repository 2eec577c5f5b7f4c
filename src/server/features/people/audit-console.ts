/**
 * Reading the audit log (owner only): a search by text, action and dates,
 * newest first, a page at a time, with how long entries are kept.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  AUDIT_PAGE_SIZE,
  AUDIT_PATH,
  auditPageSchema,
  auditQuerySchema,
} from "../../../shared/admin/audit-log.ts";
import { auditActions, searchAudit } from "../../platform/audit/queries.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";

export default async function auditRoutes(
  app: FastifyInstance,
  { config, database: { db } }: AdminAreaOptions,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    AUDIT_PATH,
    {
      schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } },
      config: { role: "owner" },
    },
    async (request) => {
      const { q, action, from, to, page } = request.query;
      const [found, actions] = await Promise.all([
        searchAudit(db, {
          text: q,
          action,
          from,
          to,
          offset: (page - 1) * AUDIT_PAGE_SIZE,
          limit: AUDIT_PAGE_SIZE,
        }),
        auditActions(db),
      ]);
      return {
        ...found,
        page,
        pageSize: AUDIT_PAGE_SIZE,
        actions,
        retentionDays: config.AUDIT_RETENTION_DAYS,
      };
    },
  );
}
