/**
 * Delivers the outbox from inside the server process: it claims due messages
 * in small batches, transactional mail before bulk, sends each, and records
 * the server's acceptance before anything else. A failure is retried with
 * capped exponential back-off, up to a maximum number of attempts, then marked
 * failed with the last error. See ADR 006 for the one window in which a
 * message could still be sent twice. Between rounds it sleeps until the next
 * message falls due (a newsletter's are spaced at its rate), at most a poll.
 * Bulk mail is also paced per receiving domain (domain-pacing.ts, ADR 037):
 * a copy starts only in a slot taken for its domain, and a domain that
 * defers (a 4xx) is backed off, its copy due again when the domain's wait ends.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Engine } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { PollingWorker } from "../ops/polling-worker.ts";
import {
  backOffDomain,
  type DomainPacingPolicy,
  domainIntervalMs,
  resetDomainBackoff,
  takeDomainSlot,
} from "./domain-pacing.ts";
import { type MailMessage, recipientAddress } from "./message.ts";
import {
  type ClaimedMessage,
  claimBatch,
  dropClaim,
  HELD_UNTIL,
  holdClaim,
  markAttemptFailed,
  markSent,
  nextDueTime,
  releaseClaims,
} from "./queue.ts";
import {
  type Deferral,
  deferral,
  type Mailer,
  type RecipientRefusal,
  recipientRefusal,
  SMTP_TIMEOUTS,
} from "./transport.ts";

/** The longest one delivery can take before the SMTP time-outs give up on it. */
const LONGEST_DELIVERY_MS =
  SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout;

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

/**
 * What to do with a claimed message: send it as composed, hold it (a paused
 * issue's copy), or withdraw it. A newsletter copy names the least time
 * after it before this sender starts the next one (1/rate): copies fall due
 * one interval apart already, and this keeps a sender that fell behind (a
 * stall, a restart) from catching up in a burst.
 */
export type Composition =
  | { send: MailMessage; spacingMs?: number }
  | { hold: true }
  | { drop: string };

export type NewsletterCopyMessage = Extract<ClaimedMessage, { newsletter: object }>;

/** Composes a newsletter copy from its issue and subscription (features/newsletter/composer.ts). */
export type ComposeNewsletter = (claimed: NewsletterCopyMessage) => Promise<Composition>;

/**
 * The shortest sleep between rounds. Short: a newsletter's copies fall due one
 * interval apart (10 ms at 100 a second), and a longer floor would add itself
 * to every copy's interval, holding the send under its rate.
 */
const MIN_SLEEP_MS = 1;

/** A message the receiving server refused for good, and to whom it was addressed. */
export interface RefusedMessage {
  claimed: ClaimedMessage;
  address: string;
  refusal: RecipientRefusal;
}

/** Told of each refused message, after it is marked failed (the deliverability feature). */
export type OnRefused = (refused: RefusedMessage) => Promise<void>;

/** A message the sender gave up on, and the last error, as recorded on its row. */
export interface FailedMessage {
  claimed: ClaimedMessage;
  reason: string;
}

/**
 * Told of each message the sender marks failed, refused for good or out of
 * attempts, after onRefused (the inquiries feature's alarm).
 */
export type OnGaveUp = (failed: FailedMessage) => Promise<void>;

/** A bulk message whose receiving server kept deferring it until its last attempt. */
export interface SoftBouncedMessage {
  claimed: ClaimedMessage;
  address: string;
  deferral: Deferral;
}

/** Told of each bulk message given up after a deferral, before onGaveUp (the deliverability feature). */
export type OnSoftBounce = (bounced: SoftBouncedMessage) => Promise<void>;

interface SenderOptions {
  db: Kysely<Database>;
  engine: Engine;
  mailer: Mailer;
  log: FastifyBaseLogger;
  policy: RetryPolicy;
  composeNewsletter: ComposeNewsletter;
  /** The envelope sender of an outbox message (platform/outbox/bounce-address.ts); none without it. */
  bounceAddress?: (outboxId: number) => string;
  /** Without it (a sender made outside the server), bulk mail keeps only its issue's rate. */
  pacing?: DomainPacingPolicy;
  onRefused?: OnRefused;
  onSoftBounce?: OnSoftBounce;
  onGaveUp?: OnGaveUp;
}

export class OutboxSender extends PollingWorker {
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;
  /** When this sender may start its next newsletter copy. */
  private nextCopyAt = 0;

  constructor(private readonly options: SenderOptions) {
    super();
  }

  /** Until the next message falls due, within [MIN_SLEEP_MS, pollMs]; the poll when that is unknown. */
  protected async sleepTime(): Promise<number> {
    const { db, engine, policy, log } = this.options;
    try {
      const due = await nextDueTime(db, engine);
      if (due === undefined) return policy.pollMs;
      return Math.min(policy.pollMs, Math.max(MIN_SLEEP_MS, due - Date.now()));
    } catch (error) {
      log.error({ err: error }, "outbox due time unreadable; polling");
      return policy.pollMs;
    }
  }

  protected async round(): Promise<void> {
    const { db, engine, policy, log } = this.options;
    try {
      while (!this.stopped) {
        const claimedAt = Date.now();
        const batch = await claimBatch(db, engine, this.worker, policy.leaseMs);
        if (batch.length === 0) return;
        await this.deliverBatch(batch, claimedAt + policy.leaseMs - LONGEST_DELIVERY_MS);
      }
    } catch (error) {
      log.error({ err: error }, "outbox round failed; retrying on the next poll");
    }
  }

  /**
   * Sends a batch in order. After the first message, one is started only
   * while the lease can still cover its whole delivery (before `startBy`), so
   * no other sender can take it mid-send; the rest is given back for the next
   * claim, as it is when the sender stops. So is the rest when a copy's
   * domain has no slot free: the next claim passes over that domain's copies.
   */
  private async deliverBatch(batch: ClaimedMessage[], startBy: number): Promise<void> {
    for (const [index, claimed] of batch.entries()) {
      const giveBack =
        (index > 0 && (this.stopped || Date.now() > startBy)) ||
        (await this.deliver(claimed)) === "domain waits";
      if (giveBack) {
        const unsent = batch.slice(index).map((message) => message.id);
        await releaseClaims(this.options.db, unsent, this.worker);
        return;
      }
    }
  }

  private compose(claimed: ClaimedMessage): Promise<Composition> {
    return claimed.newsletter === null
      ? Promise.resolve({ send: claimed.message })
      : this.options.composeNewsletter(claimed);
  }

  /** Waits for the spacing the previous copy asked for. */
  private async waitForSpacing(spacingMs: number | undefined): Promise<void> {
    if (spacingMs === undefined) return;
    const wait = this.nextCopyAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Notes the spacing a copy that starts now asks of the next. */
  private noteSpacing(spacingMs: number | undefined): void {
    if (spacingMs !== undefined) this.nextCopyAt = Date.now() + spacingMs;
  }

  /** The domain a message is paced by, and the policy, when this sender paces it. */
  private paced(claimed: ClaimedMessage) {
    const { pacing } = this.options;
    const domain = claimed.pacedDomain;
    return pacing && domain !== undefined ? { domain, pacing } : null;
  }

  /**
   * Takes the slot of a bulk message's domain: whether it got one (always,
   * for mail not paced by domain), and whether the domain was backing off.
   */
  private async domainSlot(claimed: ClaimedMessage, spacingMs: number | undefined) {
    const paced = this.paced(claimed);
    if (!paced) return { taken: true, backingOff: false };
    const interval = domainIntervalMs(paced.pacing, paced.domain, spacingMs);
    const level = await takeDomainSlot(this.options.db, paced.domain, interval);
    return { taken: level !== undefined, backingOff: (level ?? 0) > 0 };
  }

  /** Delivers one message, or reports that its domain has no slot free now (nothing done). */
  private async deliver(claimed: ClaimedMessage): Promise<"done" | "domain waits"> {
    const { db, mailer, log } = this.options;
    const composed = await this.compose(claimed);
    if ("hold" in composed) {
      await holdClaim(db, claimed.id, this.worker, HELD_UNTIL);
      return "done";
    }
    if ("drop" in composed) {
      await dropClaim(db, claimed.id, this.worker);
      log.info(
        { outboxId: claimed.id, kind: claimed.kind, reason: composed.drop },
        "mail withdrawn",
      );
      return "done";
    }
    await this.waitForSpacing(composed.spacingMs);
    const slot = await this.domainSlot(claimed, composed.spacingMs);
    if (!slot.taken) return "domain waits";
    this.noteSpacing(composed.spacingMs);
    try {
      await mailer.send(composed.send, this.options.bounceAddress?.(claimed.id));
    } catch (error) {
      await this.failed(claimed, composed.send, error);
      return "done";
    }
    // Accepted: record it before anything else, so it is never sent again.
    await markSent(db, claimed.id, this.worker);
    log.info({ outboxId: claimed.id, kind: claimed.kind, via: mailer.description }, "mail sent");
    const paced = this.paced(claimed);
    if (paced && slot.backingOff) await resetDomainBackoff(db, paced.domain);
    return "done";
  }

  /**
   * Records a send the server did not accept. A bulk message its domain
   * deferred backs the domain off and is due again when the domain's wait
   * ends; any other failure is retried after the outbox's own back-off.
   * Either way the attempt counts, so no message waits forever.
   */
  private async failed(claimed: ClaimedMessage, message: MailMessage, error: unknown) {
    const { db, engine, policy, log } = this.options;
    const reason = error instanceof Error ? error.message : String(error);
    const refusal = recipientRefusal(error);
    if (refusal) {
      await this.refused(claimed, message, refusal, reason);
      return;
    }
    const paced = this.paced(claimed);
    const deferred = paced ? deferral(error) : null;
    const domainFreeAt =
      paced && deferred ? await backOffDomain(db, engine, paced.domain, paced.pacing) : null;
    const retry = claimed.attempts < policy.maxAttempts;
    const retryAt = retry
      ? (domainFreeAt ?? new Date(Date.now() + retryDelay(claimed.attempts, policy)))
      : null;
    await markAttemptFailed(db, claimed.id, this.worker, reason, retryAt);
    log.warn(
      {
        outboxId: claimed.id,
        kind: claimed.kind,
        attempt: claimed.attempts,
        retryAt,
        ...(domainFreeAt ? { domain: paced?.domain, domainFreeAt } : {}),
        err: error,
      },
      retry ? "mail not accepted; will retry" : "mail not accepted; giving up",
    );
    if (retry) return;
    if (deferred) await this.softBounced(claimed, message, deferred);
    await this.gaveUp(claimed, reason);
  }

  /** Tells of a bulk message its domain deferred to the end; what is told is only logged when it fails. */
  private async softBounced(claimed: ClaimedMessage, message: MailMessage, deferred: Deferral) {
    const { log, onSoftBounce } = this.options;
    try {
      await onSoftBounce?.({ claimed, address: recipientAddress(message.to), deferral: deferred });
    } catch (error) {
      log.error({ err: error, outboxId: claimed.id }, "a soft bounce could not be recorded");
    }
  }

  /**
   * A recipient refused for good is not tried again: every attempt would be
   * refused the same way, and each one counts against the firm's name with
   * the receiving server.
   */
  private async refused(
    claimed: ClaimedMessage,
    message: MailMessage,
    refusal: RecipientRefusal,
    reason: string,
  ): Promise<void> {
    const { db, log, onRefused } = this.options;
    await markAttemptFailed(db, claimed.id, this.worker, reason, null);
    const address = recipientAddress(message.to);
    log.warn(
      { outboxId: claimed.id, kind: claimed.kind, code: refusal.code },
      "recipient refused by the receiving server; not retried",
    );
    try {
      await onRefused?.({ claimed, address, refusal });
    } catch (error) {
      log.error({ err: error, outboxId: claimed.id }, "a refused recipient could not be recorded");
    }
    await this.gaveUp(claimed, reason);
  }

  /** Tells of a message marked failed; what is told cannot undo the marking, and is only logged. */
  private async gaveUp(claimed: ClaimedMessage, reason: string): Promise<void> {
    const { log, onGaveUp } = this.options;
    try {
      await onGaveUp?.({ claimed, reason });
    } catch (error) {
      log.error({ err: error, outboxId: claimed.id }, "a failed message's follow-up failed");
    }
  }
}
