/**
 * Delivers the outbox from inside the server process: it claims due messages,
 * sends each, and records the server's acceptance before anything else. A
 * failure is retried with capped exponential back-off, up to a maximum number
 * of attempts, then marked failed with the last error. See ADR 006 for the
 * one window in which a message could still be sent twice.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Engine } from "../db/connection.ts";
import { type ClaimedMessage, claimNext, markAttemptFailed, markSent } from "../db/outbox.ts";
import type { Database } from "../db/schema.ts";
import type { Mailer } from "./transport.ts";

export interface RetryPolicy {
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim holds; longer than the SMTP time-outs, so a live sender keeps its row. */
  leaseMs: number;
}

/** Delay before attempt `attempt + 1`: base, 2×base, 4×base … capped at max. */
export function retryDelay(
  attempt: number,
  policy: Pick<RetryPolicy, "retryBaseMs" | "retryMaxMs">,
) {
  return Math.min(policy.retryBaseMs * 2 ** Math.max(0, attempt - 1), policy.retryMaxMs);
}

interface SenderOptions {
  db: Kysely<Database>;
  engine: Engine;
  mailer: Mailer;
  log: FastifyBaseLogger;
  policy: RetryPolicy;
}

export class OutboxSender {
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(private readonly options: SenderOptions) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs a delivery round now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.options.policy.pollMs);
      }
    });
  }

  /** Stops polling and waits for a delivery in progress to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async round(): Promise<void> {
    const { db, engine, policy, log } = this.options;
    try {
      while (!this.stopped) {
        const claimed = await claimNext(db, engine, this.worker, policy.leaseMs);
        if (!claimed) return;
        await this.deliver(claimed);
      }
    } catch (error) {
      log.error({ err: error }, "outbox round failed; retrying on the next poll");
    }
  }

  private async deliver(claimed: ClaimedMessage): Promise<void> {
    const { db, mailer, policy, log } = this.options;
    try {
      await mailer.send(claimed.message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retry = claimed.attempts < policy.maxAttempts;
      const retryAt = retry ? new Date(Date.now() + retryDelay(claimed.attempts, policy)) : null;
      await markAttemptFailed(db, claimed.id, this.worker, reason, retryAt);
      log.warn(
        {
          outboxId: claimed.id,
          kind: claimed.kind,
          attempt: claimed.attempts,
          retryAt,
          err: error,
        },
        retry ? "mail not accepted; will retry" : "mail not accepted; giving up",
      );
      return;
    }
    // Accepted: record it before anything else, so it is never sent again.
    await markSent(db, claimed.id, this.worker);
    log.info({ outboxId: claimed.id, kind: claimed.kind, via: mailer.description }, "mail sent");
  }
}
