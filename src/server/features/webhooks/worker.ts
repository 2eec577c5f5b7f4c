/**
 * Delivers the queued webhooks from inside the server process, as the
 * outbox sender delivers mail: it claims a few due deliveries with a lease,
 * posts them side by side, and records each answer. A network failure, a
 * time-out, 408, 429 or a 5xx is tried again after an exponential back-off
 * with jitter, up to WEBHOOK_MAX_ATTEMPTS (about a day and a half); any other
 * answer is final. Nothing here runs inside a write's transaction: a
 * receiver that is down or slow delays only its own deliveries.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Engine } from "../../platform/db/connection.ts";
import type { Database } from "../../platform/db/schema.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import type { AddressPolicy } from "./addresses.ts";
import { postAttempt } from "./post.ts";
import {
  type ClaimedDelivery,
  claimDeliveries,
  nextDueTime,
  recordAttempt,
  releaseDeliveries,
} from "./queue.ts";

export interface DeliveryPolicy {
  pollMs: number;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/**
 * The wait before attempt `attempt + 1`: base, 2×base, 4×base … capped, then
 * between half and all of it at random, so the deliveries a receiver's
 * outage failed together do not all come back at the same moment.
 */
export function retryDelay(
  attempt: number,
  policy: Pick<DeliveryPolicy, "retryBaseMs" | "retryMaxMs">,
  random: () => number = Math.random,
): number {
  const full = Math.min(policy.retryBaseMs * 2 ** Math.max(0, attempt - 1), policy.retryMaxMs);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** A lease longer than one attempt's time-out, so a live worker keeps the rows it posts. */
function leaseMs(policy: DeliveryPolicy) {
  return policy.timeoutMs + 30_000;
}

export interface WorkerOptions {
  db: Kysely<Database>;
  engine: Engine;
  log: FastifyBaseLogger;
  policy: DeliveryPolicy;
  addresses: AddressPolicy;
  /** The clock of due times and signatures (epoch ms); tests pass their own. */
  now: () => number;
}

export class WebhookWorker extends PollingWorker {
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly options: WorkerOptions) {
    super();
  }

  protected async sleepTime(): Promise<number> {
    const { db, policy, log, now } = this.options;
    try {
      const due = await nextDueTime(db, new Date(now()));
      if (due === undefined) return policy.pollMs;
      return Math.min(policy.pollMs, Math.max(1, due - now()));
    } catch (error) {
      log.error({ err: error }, "webhook due time unreadable; polling");
      return policy.pollMs;
    }
  }

  protected async round(): Promise<void> {
    const { db, engine, policy, log, now } = this.options;
    try {
      while (!this.stopped) {
        const batch = await claimDeliveries(
          db,
          engine,
          this.worker,
          leaseMs(policy),
          new Date(now()),
        );
        if (batch.length === 0) return;
        await Promise.all(batch.map((claimed) => this.deliver(claimed)));
      }
    } catch (error) {
      log.error({ err: error }, "webhook round failed; retrying on the next poll");
    }
  }

  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    const { db, policy, addresses, log, now } = this.options;
    if (this.stopped) {
      await releaseDeliveries(db, [claimed.id], this.worker);
      return;
    }
    const at = new Date(now());
    const result = await postAttempt(
      {
        url: claimed.url,
        secret: claimed.secret,
        webhookId: claimed.webhookId,
        payload: claimed.payload,
        at,
      },
      addresses,
      policy.timeoutMs,
    );
    const answer = {
      at: new Date(now()).toISOString(),
      status: result.status,
      body: result.body,
      durationMs: result.durationMs,
      error: result.error,
    };
    const context = {
      deliveryId: claimed.id,
      endpointId: claimed.endpointId,
      event: claimed.event,
      attempt: claimed.attempts,
      status: result.status,
    };
    if (result.error === null) {
      await recordAttempt(db, claimed, this.worker, answer, { delivered: true });
      log.info(context, "webhook delivered");
      return;
    }
    const retry = result.retryable && claimed.attempts < policy.maxAttempts;
    const wait = Math.max(
      retryDelay(claimed.attempts, policy),
      Math.min(result.retryAfterMs ?? 0, policy.retryMaxMs),
    );
    const retryAt = retry ? new Date(now() + wait) : null;
    await recordAttempt(db, claimed, this.worker, answer, { delivered: false, retryAt });
    log.warn(
      { ...context, retryAt, reason: result.error },
      retry ? "webhook not delivered; will retry" : "webhook not delivered; giving up",
    );
  }
}
