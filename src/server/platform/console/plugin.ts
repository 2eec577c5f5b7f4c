/**
 * The firm's console, as a service the features build on: the audit log, the
 * one way a console route writes (write.ts), the gate every route under
 * /api/admin passes (each declares its role to gate.ts), the bot-defence
 * screen, and the single-page app at /admin (console-files.ts), and the
 * release it runs. Each feature registers its own console routes after this
 * plugin, with the options below. Sessions that ended more than
 * SESSION_RETENTION_DAYS ago go in the daily purge.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { VERSION_PATH, versionSchema } from "../../../shared/admin/version.ts";
import audit from "../audit/plugin.ts";
import botTripsRoutes from "../security/bot-trips-console.ts";
import { siteVersion } from "../version.ts";
import { type AdminAreaOptions, sessionLimitsOf } from "./area.ts";
import consoleFiles from "./console-files.ts";
import gate from "./gate.ts";
import { deleteEndedSessions } from "./sessions.ts";
import consoleWrites from "./write.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export default fp(
  async function consoleService(app: FastifyInstance, { config, database }: AdminAreaOptions) {
    await app.register(audit, { database, retentionDays: config.AUDIT_RETENTION_DAYS });
    await app.register(consoleWrites);
    await app.register(gate, { database, limits: sessionLimitsOf(config) });
    await app.register(botTripsRoutes, { config, database });
    await app.register(consoleFiles, { root: config.ADMIN_DIR });
    // Public, as /readyz is: the footer shows it under the sign-in screen too.
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        VERSION_PATH,
        { schema: { response: { 200: versionSchema } }, config: { role: "public" } },
        async () => ({ version: siteVersion() }),
      );
    app.dailyPurge.add({
      what: "ended console sessions",
      run: (now) =>
        deleteEndedSessions(
          database.db,
          sessionLimitsOf(config),
          config.SESSION_RETENTION_DAYS * DAY_MS,
          now,
        ),
    });
  },
  { name: "console", dependencies: ["xsrf", "rate-limit", "daily-purge", "outbox"] },
);
