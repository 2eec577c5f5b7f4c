/**
 * Publishes the drafts whose time has come, in every instance, each once
 * (ADR 044). A draft is taken by the statement that clears its time, inside
 * the transaction that publishes it (draft-rows.ts claimScheduled): an
 * instance polling at the same moment waits on the row, then finds nothing
 * to take. Nothing is held in memory, so a draft scheduled before a restart
 * is published by whichever instance polls first after its time. A draft
 * that cannot be published (the record changed since it began) is taken off
 * the schedule with the reason, for the console to show; it stays a draft.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { LIST_SPECS } from "../../../shared/admin/content.ts";
import { DRAFT_TEXTS } from "../../../shared/admin/content-drafts.ts";
import { recordAudit } from "../../platform/audit/queries.ts";
import type { Database } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import { claimScheduled, dueDraftIds, holdScheduled, nextPublishTime } from "./draft-rows.ts";
import { publishDraftIn } from "./drafts.ts";
import { ContentRefusal } from "./editing.ts";
import type { SiteContent } from "./site-content.ts";

/** Who the audit log names for what the publisher does. */
export const PUBLISHER_ACTOR = "scheduled publishing";

export interface PublisherOptions {
  content: SiteContent;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** The longest sleep between rounds: a draft scheduled on another instance is seen this late at most. */
  pollMs: number;
  /** The clock due times are compared with (epoch ms). */
  now: () => number;
}

export class ScheduledPublisher extends PollingWorker {
  constructor(private readonly options: PublisherOptions) {
    super();
  }

  /**
   * Until the next draft is due, or the poll interval when that is later or
   * none is scheduled. A draft still due after a round failed to publish it
   * (the database away, say) waits the poll interval too, rather than being
   * tried again at once, and again.
   */
  protected async sleepTime(): Promise<number> {
    const { db, pollMs, now } = this.options;
    const next = await nextPublishTime(db).catch(() => null);
    const wait = next === null ? pollMs : Date.parse(next) - now();
    return wait > 0 ? Math.min(pollMs, wait) : pollMs;
  }

  protected async round(): Promise<void> {
    const { db, log, now } = this.options;
    try {
      for (const id of await dueDraftIds(db, new Date(now()).toISOString())) {
        if (this.stopped) return;
        await this.publish(id);
      }
    } catch (error) {
      log.error({ err: error }, "scheduled publishing failed; retrying on the next poll");
    }
  }

  private async publish(id: number): Promise<void> {
    const { content, db, log, now } = this.options;
    const at = new Date(now()).toISOString();
    // What was claimed, for recording why it could not be published.
    const claimed: { publishAt?: string; target?: string } = {};
    try {
      await content.edit(async (trx) => {
        const draft = await claimScheduled(trx, id, at);
        if (!draft?.publishAt) return;
        claimed.publishAt = draft.publishAt;
        claimed.target = `${draft.list}:${draft.recordId}`;
        const by = draft.scheduledBy ?? draft.author;
        const entry = await publishDraftIn(trx, draft, { userId: null, recordedAs: by });
        const spec = LIST_SPECS[draft.list];
        await recordAudit(trx, {
          userId: null,
          actor: PUBLISHER_ACTOR,
          action: "content-published",
          target: claimed.target,
          detail: {
            title: entry.fields[spec.titleField],
            version: entry.version,
            scheduledBy: by,
          },
        });
        log.info({ list: draft.list, id: draft.recordId }, "scheduled draft published");
      }, db);
    } catch (error) {
      const { publishAt, target } = claimed;
      if (!(error instanceof ContentRefusal) || !publishAt || !target) throw error;
      await this.hold(id, publishAt, target, error.message);
    }
  }

  /** Takes a draft that cannot be published off the schedule, saying why, once across instances. */
  private async hold(id: number, publishAt: string, target: string, reason: string) {
    const { db, log } = this.options;
    await inTransaction(db, async (trx) => {
      if (!(await holdScheduled(trx, id, publishAt, DRAFT_TEXTS.notPublished(reason)))) return;
      await recordAudit(trx, {
        userId: null,
        actor: PUBLISHER_ACTOR,
        action: "content-publish-held",
        target,
        detail: { scheduledFor: publishAt, reason },
      });
    });
    log.warn({ draftId: id, reason }, "scheduled draft not published");
  }
}
