/**
 * The send guard: a send that bounces or is reported as spam far more than
 * a healthy list would pauses itself before it costs the firm its name with
 * the mailbox providers (Gmail and Yahoo act on complaints above 0.1 % and
 * refuse bulk mail above 0.3 %). Judged over the send's most recent
 * finished copies; once paused, the console says why and every owner is
 * mailed. Resuming starts the count afresh.
 */
import type { Kysely } from "kysely";
import { recordAudit } from "../../platform/audit/queries.ts";
import { ownerAddresses } from "../../platform/console/users.ts";
import type { Database } from "../../platform/db/schema.ts";
import type { MailMessage } from "../../platform/outbox/message.ts";
import { ownerNoticeMail } from "../../platform/outbox/owner-notice.tsx";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import { type SendHealth, sendHealth } from "../deliverability/index.ts";
import { pauseSend } from "./issue-sends.ts";
import type { NewsletterSettings } from "./server-settings.ts";

export interface SendGuardPolicy {
  /** The most recent finished copies judged. */
  window: number;
  /** No judgement before this many copies have finished: a handful says nothing. */
  minCopies: number;
  hardBouncePercent: number;
  complaintPercent: number;
}

export function sendGuardPolicy(
  config: Pick<
    NewsletterSettings,
    | "SEND_GUARD_WINDOW"
    | "SEND_GUARD_MIN_COPIES"
    | "SEND_GUARD_HARD_BOUNCE_PERCENT"
    | "SEND_GUARD_COMPLAINT_PERCENT"
  >,
): SendGuardPolicy {
  return {
    window: config.SEND_GUARD_WINDOW,
    minCopies: config.SEND_GUARD_MIN_COPIES,
    hardBouncePercent: config.SEND_GUARD_HARD_BOUNCE_PERCENT,
    complaintPercent: config.SEND_GUARD_COMPLAINT_PERCENT,
  };
}

const percent = (part: number, whole: number) => (100 * part) / whole;
const shown = (value: number) => value.toLocaleString("en-GB", { maximumFractionDigits: 2 });

/** Why a send with this health must pause, in the firm's words; null when it may go on. */
export function guardVerdict(health: SendHealth, policy: SendGuardPolicy): string | null {
  const { copies, hardBounces, complaints } = health;
  if (copies < policy.minCopies) return null;
  const bounced = percent(hardBounces, copies);
  if (bounced > policy.hardBouncePercent) {
    return `${hardBounces} of the last ${copies} copies bounced (${shown(bounced)} %, above the ${shown(policy.hardBouncePercent)} % limit). Check the list for old or mistyped addresses before resuming.`;
  }
  const complained = percent(complaints, copies);
  if (complained > policy.complaintPercent) {
    return `${complaints} of the last ${copies} copies were reported as spam (${shown(complained)} %, above the ${shown(policy.complaintPercent)} % limit). Check that every reader asked for Insight before resuming.`;
  }
  return null;
}

export interface GuardMailSettings {
  /** The From in force, read when a send is paused. */
  from: (db: Kysely<Database>) => Promise<string>;
  publicOrigin: string;
}

function pausedMail(
  to: string,
  issue: { id: number; title: string },
  reason: string,
  { from, publicOrigin }: { from: string; publicOrigin: string },
): MailMessage {
  return ownerNoticeMail(
    to,
    {
      subject: `Insight paused: "${issue.title}"`,
      lead: `The send of "${issue.title}" paused itself: ${reason}`,
      next: "The copies not sent yet are held. Open the issue to resume or cancel the send:",
      link: `${publicOrigin}/admin/newsletter/${issue.id}`,
      linkText: "Open the issue",
    },
    from,
  );
}

/**
 * Pauses the send with its reason, records it in the audit log and mails
 * every owner, in one transaction; false when the send was no longer
 * running (a person paused or cancelled it meanwhile).
 */
async function pauseForHealth(
  trx: OutboxTransaction,
  issue: { id: number; title: string },
  reason: string,
  mail: GuardMailSettings,
): Promise<boolean> {
  if (!(await pauseSend(trx, issue.id))) return false;
  await trx
    .updateTable("issues")
    .set({ paused_reason: reason })
    .where("id", "=", issue.id)
    .execute();
  await recordAudit(trx, {
    userId: null,
    actor: "Send guard",
    action: "issue-paused",
    target: `issue:${issue.id}`,
    detail: { reason },
  });
  const settings = { from: await mail.from(trx), publicOrigin: mail.publicOrigin };
  for (const email of await ownerAddresses(trx)) {
    await enqueueMail(trx, "send-paused", pausedMail(email, issue, reason, settings));
  }
  return true;
}

/** Judges every running send; returns the ids of those it paused. */
export async function guardSends(
  db: Kysely<Database>,
  withOutbox: <T>(work: (trx: OutboxTransaction) => Promise<T>) => Promise<T>,
  policy: SendGuardPolicy,
  mail: GuardMailSettings,
): Promise<number[]> {
  const running = await db
    .selectFrom("issues")
    .select(["id", "title", "guard_since"])
    .where("status", "in", ["queuing", "sending"])
    .execute();
  const paused: number[] = [];
  for (const issue of running) {
    const health = await sendHealth(db, {
      issueId: issue.id,
      size: policy.window,
      since: issue.guard_since,
    });
    const reason = guardVerdict(health, policy);
    if (reason && (await withOutbox((trx) => pauseForHealth(trx, issue, reason, mail)))) {
      paused.push(issue.id);
    }
  }
  return paused;
}
