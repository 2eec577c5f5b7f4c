/**
 * Delivers the queued webhooks from inside the server process, as the
 * outbox sender delivers mail: it claims due deliveries with a lease, posts
 * them side by side, and records each answer. A network failure, a
 * time-out, 408, 429 or a 5xx is tried again after an exponential back-off
 * with jitter, up to WEBHOOK_MAX_ATTEMPTS (about a day and a half); any other
 * answer is final. Nothing here runs inside a write's transaction: a
 * receiver that is down or slow delays only its own deliveries. Each
 * delivery is posted on its own, at most one per endpoint and
 * DELIVERIES_IN_FLIGHT in all: one recorded, the worker claims the next at
 * once, never waiting for the others it is posting (ADR 061).
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
  DELIVERIES_IN_FLIGHT,
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
  /** The delivery being posted to each endpoint, by the endpoint's id, until its answer is recorded. */
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(private readonly options: WorkerOptions) {
    super();
  }

  /** Stops claiming, and waits for the deliveries being posted to be recorded. */
  override async stop(): Promise<void> {
    await super.stop();
    await Promise.all(this.inFlight.values());
  }

  protected async sleepTime(): Promise<number> {
    const { db, policy, log, now } = this.options;
    // Full, the worker is woken as each delivery is recorded.
    if (this.inFlight.size >= DELIVERIES_IN_FLIGHT) return policy.pollMs;
    try {
      const due = await nextDueTime(db, new Date(now()), [...this.inFlight.keys()]);
      if (due === undefined) return policy.pollMs;
      return Math.min(policy.pollMs, Math.max(1, due - now()));
    } catch (error) {
      log.error({ err: error }, "webhook due time unreadable; polling");
      return policy.pollMs;
    }
  }

  /**
   * Claims what there is room for: every other endpoint's first due
   * delivery, up to the room left. What it leaves waits for room, for its
   * endpoint's delivery being posted to be recorded, or for its time.
   */
  protected async round(): Promise<void> {
    const { db, engine, policy, log, now } = this.options;
    const room = DELIVERIES_IN_FLIGHT - this.inFlight.size;
    if (this.stopped || room <= 0) return;
    try {
      const claimed = await claimDeliveries(
        db,
        engine,
        this.worker,
        leaseMs(policy),
        new Date(now()),
        {
          busy: [...this.inFlight.keys()],
          limit: room,
        },
      );
      for (const delivery of claimed) this.post(delivery);
    } catch (error) {
      log.error({ err: error }, "webhook round failed; retrying on the next poll");
    }
  }

  /**
   * Posts a delivery without waiting for it: its endpoint is busy until the
   * answer is recorded, then the worker looks for more at once.
   */
  private post(claimed: ClaimedDelivery): void {
    const posting = this.deliver(claimed)
      .catch((error: unknown) =>
        this.options.log.error(
          { err: error, deliveryId: claimed.id },
          "webhook answer not recorded; the delivery is tried again once its lease ends",
        ),
      )
      .finally(() => {
        this.inFlight.delete(claimed.endpointId);
        this.wake();
      });
    this.inFlight.set(claimed.endpointId, posting);
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
