/** Liveness and readiness probes for a process manager or load balancer. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { z } from "zod";
import type { DatabaseHandle } from "../db/connection.ts";
import { siteVersion } from "../version.ts";

export const DATABASE_UNREACHABLE_MESSAGE = "The database is not reachable.";
export const PAGES_BROKEN_MESSAGE = "The pages cannot be rendered.";
export const DRAINING_MESSAGE = "The instance is stopping.";

export interface HealthOptions {
  database: DatabaseHandle;
  /**
   * The home page as a visitor gets it (rendered once, then from memory),
   * or null where the server renders no pages. An instance whose pages all
   * fail while its API answers must leave the load balancer too.
   */
  homePage: (() => Promise<{ status: number }>) | null;
}

const health: FastifyPluginAsyncZod<HealthOptions> = async (app, { database, homePage }) => {
  app.get(
    "/healthz",
    { schema: { response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  /** Why the home page cannot be served, or undefined when it can. */
  async function pagesBroken(): Promise<unknown> {
    if (!homePage) return undefined;
    try {
      const { status } = await homePage();
      return status >= 500 ? `the home page rendered with status ${status}` : undefined;
    } catch (error) {
      return error;
    }
  }

  app.get(
    "/readyz",
    {
      schema: {
        response: { 200: z.object({ status: z.literal("ready"), version: z.string() }) },
      },
    },
    async (request) => {
      // A stopping instance still serves, but a balancer should send its requests elsewhere.
      if (app.draining) throw app.httpErrors.createError(503, DRAINING_MESSAGE, { expose: true });
      try {
        await sql`select 1`.execute(database.db);
      } catch (error) {
        request.log.warn({ err: error }, "database not reachable");
        throw app.httpErrors.createError(503, DATABASE_UNREACHABLE_MESSAGE, { expose: true });
      }
      const broken = await pagesBroken();
      if (broken !== undefined) {
        request.log.error({ err: broken }, "pages cannot be rendered");
        throw app.httpErrors.createError(503, PAGES_BROKEN_MESSAGE, { expose: true });
      }
      return { status: "ready" as const, version: siteVersion() };
    },
  );
};

export default health;
