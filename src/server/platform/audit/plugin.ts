/**
 * Records what a person did, with who (the signed-in person, or the address a
 * failed sign-in typed), when and from where.
 *
 * `app.audit` records a change, and takes the change's transaction: the
 * entry and the change commit together or not at all, so no change is ever
 * kept without its entry. The type says so; a plain database handle is
 * refused by the checker. Console routes do not call it: app.consoleWrite
 * (platform/console/write.ts) does, in the transaction it opens for them.
 * `app.auditNoChange(request, action, target, detail)` records what changed
 * nothing (a refused attempt, a download), on its own.
 *
 * Entries older than AUDIT_RETENTION_DAYS go in the daily purge.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Transaction } from "kysely";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { type AuditEntry, type Coalesce, purgeAudit, recordAudit } from "./queries.ts";

/** What the entry says beyond who, what and when; `actor` names who acted when no one is signed in. */
export type AuditDetail = Record<string, unknown> & { actor?: string };

const DAY_MS = 24 * 60 * 60 * 1000;

declare module "fastify" {
  interface FastifyInstance {
    audit(
      trx: Transaction<Database>,
      request: FastifyRequest,
      action: AuditAction,
      target?: string,
      detail?: AuditDetail,
      coalesce?: Coalesce,
    ): Promise<void>;
    auditNoChange(
      request: FastifyRequest,
      action: AuditAction,
      target?: string,
      detail?: AuditDetail,
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
    const entryOf = (
      request: FastifyRequest,
      action: AuditAction,
      target: string | undefined,
      detail: AuditDetail | undefined,
    ): AuditEntry => {
      const { actor, ...rest } = detail ?? {};
      return {
        userId: request.user?.id ?? null,
        actor: request.user?.email ?? actor ?? "anonymous",
        action,
        target,
        ip: request.ip,
        detail: Object.keys(rest).length ? rest : undefined,
      };
    };
    app.decorate("audit", (trx, request, action, target, detail, coalesce) =>
      recordAudit(trx, entryOf(request, action, target, detail), coalesce),
    );
    app.decorate("auditNoChange", (request, action, target, detail) =>
      recordAudit(db, entryOf(request, action, target, detail)),
    );

    app.dailyPurge.add({
      what: "audit log",
      run: (now) => purgeAudit(db, retentionDays * DAY_MS, now),
    });
  },
  { name: "audit", dependencies: ["daily-purge"] },
);
