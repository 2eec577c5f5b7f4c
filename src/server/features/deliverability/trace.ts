/**
 * Ties a report from the bounce mailbox to the message it is about, and acts
 * on it only when the report proves it (ADR 060). Anyone can write to the
 * bounce mailbox: its plain address is every message's Return-Path without
 * the token. So a report counts only when it carries the token of a message
 * this site sent, and names the address that message went to (or none):
 *
 * - the signed bounce address it was sent to, or that the quoted original
 *   carried as its Return-Path (platform/outbox/bounce-address.ts);
 * - else the Message-ID of the quoted original, found in the outbox.
 *
 * Any other report is set aside unverified: kept and shown to the owners,
 * never acted on.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { Database } from "../../platform/db/schema.ts";
import {
  hasBounceAddressForm,
  outboxIdOfBounceAddress,
} from "../../platform/outbox/bounce-address.ts";
import { type MailMessage, recipientAddress } from "../../platform/outbox/message.ts";
import { messageIdOf } from "../../platform/outbox/queue.ts";
import type { NewReport } from "./record.ts";
import type { DeliveryReport } from "./reports.ts";

export interface BounceSigning {
  /** BOUNCE_ADDRESS: the base every message's bounce address is made from. */
  bounceAddress: string;
  secret: string;
}

/** Why a report was not acted on, as the console shows it. */
export const UNVERIFIED = {
  noToken:
    "It carries no token of a message the site sent: it came to the plain bounce address and quotes no Message-ID of the site's, so anyone could have written it.",
  forged: "Its bounce address carries a token the site did not sign: forged or mangled.",
  notKept:
    "The message it refers to is no longer kept, so the address that message went to cannot be checked.",
  otherAddress: "It names another address than the one the message it refers to was sent to.",
} as const;

type Traced = Omit<NewReport, "source" | "sourceKey">;

/** A report proven to be about a message of ours to the address it names, or why it is not. */
export type Trace =
  | { verified: true; report: Traced }
  | { verified: false; email: string | null; why: string };

type TraceDatabase = Pick<DatabaseHandle, "db" | "engine">;

async function outboxMessage(db: Kysely<Database>, outboxId: number) {
  return db
    .selectFrom("outbox")
    .leftJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
    .select(["outbox.kind", "outbox.issue_id", "outbox.message", "subscriptions.email"])
    .where("outbox.id", "=", outboxId)
    .executeTakeFirst();
}

/** The address a stored outbox message went to, lower-cased: its subscriber's, or its own `to`. */
function addressOf(row: { message: string; email: string | null }): string | null {
  if (row.email) return row.email.toLowerCase();
  const { to } = JSON.parse(row.message) as Partial<MailMessage>;
  return to ? recipientAddress(to).toLowerCase() : null;
}

/** The outbox row of the message with this Message-ID; null for none, or for more than one. */
async function outboxIdByMessageId(
  { db, engine }: TraceDatabase,
  messageId: string | null,
): Promise<number | null> {
  if (!messageId) return null;
  // The outbox writes them as <id@domain>; a report may quote one without its brackets.
  const bare =
    messageId.startsWith("<") && messageId.endsWith(">") ? messageId.slice(1, -1) : messageId;
  const rows = await db
    .selectFrom("outbox")
    .select("id")
    .where(messageIdOf(engine), "=", `<${bare}>`)
    .limit(2)
    .execute();
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}

function unverified(report: DeliveryReport, why: string): Trace {
  return { verified: false, email: report.recipient, why };
}

export async function traceReport(
  database: TraceDatabase,
  report: DeliveryReport,
  { bounceAddress, secret }: BounceSigning,
  log: FastifyBaseLogger,
): Promise<Trace> {
  const tokens = [...report.addressedTo, report.originalReturnPath ?? ""]
    .map((address) => address.replace(/^<|>$/g, "").trim())
    .filter((address) => hasBounceAddressForm(bounceAddress, address));
  const signed =
    tokens
      .map((address) => outboxIdOfBounceAddress(bounceAddress, secret, address))
      .find((id) => id !== null) ?? null;
  if (signed === null && tokens.length > 0) {
    log.warn({ kind: report.kind }, "report set aside: its bounce address is forged or mangled");
    return unverified(report, UNVERIFIED.forged);
  }

  const outboxId = signed ?? (await outboxIdByMessageId(database, report.originalMessageId));
  if (outboxId === null) return unverified(report, UNVERIFIED.noToken);
  const row = await outboxMessage(database.db, outboxId);
  const sentTo = row ? addressOf(row) : null;
  if (!row || !sentTo) return unverified(report, UNVERIFIED.notKept);
  // A report that names no address (a provider that redacts it) is about
  // the message's own; one that names another was not written about it.
  if (report.recipient && report.recipient !== sentTo) {
    return unverified(report, UNVERIFIED.otherAddress);
  }
  return {
    verified: true,
    report: {
      kind: report.kind,
      status: report.status,
      text: report.text,
      email: sentTo,
      outboxId,
      messageKind: row.kind,
      issueId: row.issue_id,
    },
  };
}
