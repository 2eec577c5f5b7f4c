/**
 * The one way a console route writes: `app.consoleWrite(request, action,
 * work)` opens the write's transaction, an outbox one (so the work may queue
 * mail, and only there, and the sender wakes once it commits), runs the
 * work in it, and records the audit entry `action` in the same transaction:
 * the change and its entry commit together, or neither does. The action is
 * part of every call (or, where the work finds out which it was, a function
 * of its answer), so no write forgets its entry; a write that keeps none
 * says why instead (`{ unaudited: "…" }`).
 *
 * The work fills in what the entry is about as it learns it (`audit.subject`,
 * `audit.detail` of its second argument), and marks a write that turned out
 * to change nothing (`audit.unchanged`), which then records nothing. A
 * refusal it throws (`refuse.*`, platform/refusal.ts) rolls the transaction
 * back and is answered with its status, message and fields by the one error
 * handler (platform/security/errors.ts), as is one a route throws before its
 * write.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
import type { AuditDetail } from "../audit/plugin.ts";
import type { Coalesce } from "../audit/queries.ts";
import type { OutboxTransaction } from "../outbox/queue.ts";

/** What a write's audit entry says beyond who, what and when; the work fills it in. */
export interface WriteEntry {
  /** What was changed: a record's key (`issue:12`), an address; none for one's own account. */
  subject?: string;
  detail?: AuditDetail;
  /** Writes of one thing by one person within this window are one entry (a draft typed). */
  coalesce?: Coalesce;
  /** Set when the write changed nothing after all (a role given again): no entry. */
  unchanged?: boolean;
}

/** A write that keeps no audit entry, and why: none may leave it out by omission. */
export interface Unaudited {
  unaudited: string;
}

export type ConsoleWork<T> = (trx: OutboxTransaction, entry: WriteEntry) => Promise<T>;

/** The entry's action: named, or told by the work's answer (a link's purpose). */
export type WriteAction<T> = AuditAction | ((answer: T) => AuditAction) | Unaudited;

declare module "fastify" {
  interface FastifyInstance {
    /** Runs a console write and records its audit entry in one transaction; answers the work's answer. */
    consoleWrite<T>(
      request: FastifyRequest,
      action: WriteAction<T>,
      work: ConsoleWork<T>,
    ): Promise<T>;
  }
}

export default fp(
  async function consoleWrites(app: FastifyInstance) {
    app.decorate(
      "consoleWrite",
      <T>(request: FastifyRequest, action: WriteAction<T>, work: ConsoleWork<T>) =>
        app.withOutbox(async (trx) => {
          const entry: WriteEntry = {};
          const answer = await work(trx, entry);
          if (typeof action !== "object" && !entry.unchanged) {
            const named = typeof action === "function" ? action(answer) : action;
            await app.audit(trx, request, named, entry.subject, entry.detail, entry.coalesce);
          }
          return answer;
        }),
    );
  },
  { name: "console-write", dependencies: ["outbox", "audit"] },
);
