/**
 * The firm's console: its API under /api/admin (each area a plugin, every
 * route declaring its role to auth/plugin.ts) and its single-page app at
 * /admin (console-files.ts).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import authGate from "../auth/plugin.ts";
import authRoutes from "../auth/routes.ts";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { SessionLimits } from "../db/sessions.ts";
import { signingSecret } from "../security/signing-secret.ts";
import audit from "./audit.ts";
import consoleFiles from "./console-files.ts";
import contentRoutes from "./content.ts";
import defencesRoutes from "./defences.ts";
import inquiriesRoutes from "./inquiries.ts";
import newsletterRoutes from "./newsletter.ts";
import peopleRoutes from "./people.ts";
import subscribersRoutes from "./subscribers.ts";

export interface AdminAreaOptions {
  config: Config;
  database: DatabaseHandle;
}

export interface AdminOptions extends AdminAreaOptions {}

export function sessionLimitsOf(config: Config): SessionLimits {
  return {
    idleMs: config.SESSION_IDLE_MINUTES * 60_000,
    maxMs: config.SESSION_MAX_HOURS * 3_600_000,
  };
}

export default fp(
  async function admin(app: FastifyInstance, { config, database }: AdminOptions) {
    const limits = sessionLimitsOf(config);
    await app.register(audit, { database, retentionDays: config.AUDIT_RETENTION_DAYS });
    await app.register(authGate, { database, limits });
    await app.register(authRoutes, {
      database,
      limits,
      throttle: {
        freeFailures: config.SIGN_IN_FREE_FAILURES,
        lockMs: config.SIGN_IN_LOCK_SECONDS * 1000,
      },
      serverSecret: await signingSecret(database.db, config.UNSUBSCRIBE_SECRET),
    });
    const area = { config, database };
    await app.register(inquiriesRoutes, area);
    await app.register(subscribersRoutes, area);
    await app.register(newsletterRoutes, area);
    await app.register(contentRoutes, area);
    await app.register(peopleRoutes, area);
    await app.register(defencesRoutes, area);
    await app.register(consoleFiles, { root: config.ADMIN_DIR });
  },
  { name: "admin", dependencies: ["xsrf", "mail", "content", "rate-limit", "newsletter"] },
);
