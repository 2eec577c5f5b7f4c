/** Liveness and readiness probes for a process manager or load balancer. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { z } from "zod";
import type { DatabaseHandle } from "../db/connection.ts";

export const DATABASE_UNREACHABLE_MESSAGE = "The database is not reachable.";
export const DRAINING_MESSAGE = "The instance is stopping.";

const health: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    "/healthz",
    { schema: { response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/readyz",
    { schema: { response: { 200: z.object({ status: z.literal("ready") }) } } },
    async (request) => {
      // A stopping instance still serves, but a balancer should send its requests elsewhere.
      if (app.draining) throw app.httpErrors.createError(503, DRAINING_MESSAGE, { expose: true });
      try {
        await sql`select 1`.execute(database.db);
      } catch (error) {
        request.log.warn({ err: error }, "database not reachable");
        throw app.httpErrors.createError(503, DATABASE_UNREACHABLE_MESSAGE, { expose: true });
      }
      return { status: "ready" as const };
    },
  );
};

export default health;
