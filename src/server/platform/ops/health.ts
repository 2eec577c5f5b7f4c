/** Liveness and readiness probes for a process manager or load balancer. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { z } from "zod";
import type { DatabaseHandle } from "../db/connection.ts";
import { siteVersion } from "../version.ts";

export const DATABASE_UNREACHABLE_MESSAGE = "The database is not reachable.";

const health: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    "/healthz",
    { schema: { response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/readyz",
    {
      schema: {
        response: { 200: z.object({ status: z.literal("ready"), version: z.string() }) },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(database.db);
      } catch (error) {
        request.log.warn({ err: error }, "database not reachable");
        throw app.httpErrors.createError(503, DATABASE_UNREACHABLE_MESSAGE, { expose: true });
      }
      return { status: "ready" as const, version: siteVersion() };
    },
  );
};

export default health;
