/**
 * Starts the sends whose time has come and queues their messages, in each
 * instance. An issue is taken with a lease (one instance queues it at a
 * time), queued in batches that each move its cursor, and given back when
 * the process stops; a queuing cut off by a crash is taken again once its
 * lease ends. It also marks sent the issues with nothing left to send, and
 * has the send guard judge the running ones.
 */
import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import { newMessageId } from "../../platform/outbox/message.ts";
import type { OutboxTransaction } from "../../platform/outbox/queue.ts";
import {
  claimIssueToQueue,
  type FinishedIssue,
  finishSentIssues,
  nextSlot,
  type QueuingIssue,
  QueuingStopped,
  queueBatch,
  releaseIssue,
} from "./issue-sends.ts";

export interface DispatcherOptions {
  db: Kysely<Database>;
  /** Runs a batch in one transaction and wakes the outbox sender once it commits. */
  withOutbox: <T>(work: (trx: OutboxTransaction) => Promise<T>) => Promise<T>;
  log: FastifyBaseLogger;
  pollMs: number;
  /** How long a claim on an issue's queuing holds; renewed by every batch. */
  leaseMs: number;
  /** The From in force, whose domain each batch's Message-IDs take. */
  from: (db: Kysely<Database>) => Promise<string>;
  /** A send began or an issue finished: the archive may have changed. */
  onArchiveChange: () => Promise<void>;
  /** Judges the running sends and pauses the unhealthy ones (send-guard.tsx); their ids. */
  guard: () => Promise<number[]>;
  /** An issue's send finished: told inside the transaction that marks it sent. */
  onSendFinished: (trx: OutboxTransaction, issue: FinishedIssue) => Promise<void>;
}

export class IssueDispatcher extends PollingWorker {
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly options: DispatcherOptions) {
    super();
  }

  protected async sleepTime(): Promise<number> {
    return this.options.pollMs;
  }

  protected async round(): Promise<void> {
    const { db, log, leaseMs, onArchiveChange, guard } = this.options;
    try {
      const paused = await guard();
      if (paused.length > 0) log.warn({ issueIds: paused }, "sends paused by the send guard");
      if ((await this.finish()) > 0) await onArchiveChange();
      while (!this.stopped) {
        const issue = await claimIssueToQueue(db, this.worker, leaseMs);
        if (!issue) return;
        if (issue.started) await onArchiveChange();
        await this.queue(issue);
      }
    } catch (error) {
      log.error({ err: error }, "newsletter dispatch failed; retrying on the next poll");
    }
  }

  /** Marks sent the issues with nothing left to send, and tells of each; how many. */
  private finish(): Promise<number> {
    const { withOutbox, onSendFinished } = this.options;
    return withOutbox(async (trx) => {
      const finished = await finishSentIssues(trx);
      for (const issue of finished) await onSendFinished(trx, issue);
      return finished.length;
    });
  }

  private async queue(issue: QueuingIssue): Promise<void> {
    const { db, withOutbox, leaseMs, from, log } = this.options;
    let slot = await nextSlot(db, issue.id);
    let { cursor } = issue;
    let queued = 0;
    while (!this.stopped) {
      const current = { ...issue, cursor };
      const batch = await withOutbox(async (trx) => {
        const sender = await from(trx);
        return queueBatch(trx, {
          issue: current,
          worker: this.worker,
          leaseMs,
          firstSlot: slot,
          messageId: () => newMessageId(sender),
        });
      }).catch((error: unknown) => {
        if (error instanceof QueuingStopped) return undefined;
        throw error;
      });
      if (!batch) {
        log.info(
          { issueId: issue.id, queued },
          "newsletter queuing stopped: paused, cancelled or taken over",
        );
        return;
      }
      queued += batch.inserted;
      ({ cursor, nextSlot: slot } = batch);
      if (batch.done) {
        log.info({ issueId: issue.id, queued }, "newsletter queued");
        return;
      }
      // SQLite's driver is synchronous: without a turn of the event loop
      // between batches, every request would wait for the whole queuing.
      await nextTurn();
    }
    await releaseIssue(db, issue.id, this.worker);
  }
}
