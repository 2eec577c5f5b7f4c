/**
 * The console's suppression list. Whoever may read and export the
 * subscribers (a viewer) may read and export it too: it says why an address
 * gets no mail. Only an owner lifts a suppression, since that sends mail
 * again to an address that bounced or called it spam, which counts against
 * the firm's domain; the lift and its audit entry commit together.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { PAGE_SIZE } from "../../../shared/admin/subscribers.ts";
import {
  SUPPRESSION_ROUTES,
  SUPPRESSION_TEXTS,
  suppressionFilterSchema,
  suppressionIdSchema,
  suppressionListQuerySchema,
  suppressionListSchema,
} from "../../../shared/admin/suppressions.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { sendCsv } from "../../platform/console/csv.ts";
import { refuse } from "../../platform/refusal.ts";
import {
  EXPORT_COLUMNS,
  exportSuppressions,
  liftSuppressionById,
  listSuppressions,
} from "./suppressions-listing.ts";

/** The address names the entry: the suppression's row is gone once lifted. */
/** The row, never the address: the audit log outlives an erasure (docs/privacy/erasure.md). */
const target = (id: number) => `suppression:${id}`;

export default async function suppressionsConsole(
  app: FastifyInstance,
  { database }: AdminAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    SUPPRESSION_ROUTES.list,
    {
      schema: {
        querystring: suppressionListQuerySchema,
        response: { 200: suppressionListSchema },
      },
      config: { role: "viewer" },
    },
    async (request) => {
      const { page, ...filter } = request.query;
      const { items, total } = await listSuppressions(db, filter, page);
      return { items, total, page, pageSize: PAGE_SIZE };
    },
  );

  routes.get(
    SUPPRESSION_ROUTES.export,
    {
      schema: { querystring: suppressionFilterSchema, response: { 200: z.string() } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const rows = await exportSuppressions(db, request.query);
      await app.auditNoChange(request, "suppressions-exported", undefined, {
        filter: request.query,
        rows: rows.length,
      });
      return sendCsv(reply, "suppressions.csv", rows, EXPORT_COLUMNS);
    },
  );

  routes.delete(
    SUPPRESSION_ROUTES.one,
    {
      schema: {
        params: suppressionIdSchema,
        response: { 204: z.null() },
      },
      config: { role: "owner" },
    },
    async (request, reply) => {
      await app.consoleWrite(request, "suppression-lifted", async (trx, audit) => {
        const lifted = await liftSuppressionById(trx, request.params.id);
        if (!lifted) throw refuse.notFound(SUPPRESSION_TEXTS.notFound);
        audit.subject = target(request.params.id);
        audit.detail = { reason: lifted.reason };
      });
      return reply.code(204).send(null);
    },
  );
}
