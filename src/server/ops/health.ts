/** Liveness and readiness probes for a process manager or load balancer. */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { DatabaseHandle } from "../db/connection.ts";

export default async function health(
  app: FastifyInstance,
  { database }: { database: DatabaseHandle },
) {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: "ready" };
    } catch (error) {
      request.log.warn({ err: error }, "database not reachable");
      return reply.code(503).send({ status: "unavailable" });
    }
  });
}
