/**
 * `app.audit(request, action, target, detail)`: records what a person did,
 * with who (the signed-in person, or the address a failed sign-in typed),
 * when and from where. Entries older than AUDIT_RETENTION_DAYS are removed
 * at start and daily.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AuditAction } from "../../shared/admin/audit-log.ts";
import { purgeAudit, recordAudit } from "../db/audit.ts";
import type { DatabaseHandle } from "../db/connection.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

declare module "fastify" {
  interface FastifyInstance {
    audit(
      request: FastifyRequest,
      action: AuditAction,
      target?: string,
      detail?: Record<string, unknown> & { actor?: string },
    ): Promise<void>;
  }
}

export interface AuditOptions {
  database: DatabaseHandle;
  retentionDays: number;
}

export default fp(
  async function audit(app: FastifyInstance, { database, retentionDays }: AuditOptions) {
    const { db } = database;
    app.decorate("audit", async (request, action, target, detail) => {
      const { actor, ...rest } = detail ?? {};
      await recordAudit(db, {
        userId: request.user?.id ?? null,
        actor: request.user?.email ?? actor ?? "anonymous",
        action,
        target,
        ip: request.ip,
        detail: Object.keys(rest).length ? rest : undefined,
      });
    });

    const purge = () =>
      purgeAudit(db, retentionDays * DAY_MS).catch((err: unknown) =>
        app.log.error({ err }, "audit log purge failed"),
      );
    let timer: NodeJS.Timeout | undefined;
    app.addHook("onReady", async () => {
      await purge();
      timer = setInterval(purge, DAY_MS).unref();
    });
    app.addHook("onClose", async () => clearInterval(timer));
  },
  { name: "audit" },
);
