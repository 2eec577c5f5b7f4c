/**
 * Ties a report from the bounce mailbox to the message it is about. The
 * signed bounce address the report was sent to (or that the quoted original
 * carried as its Return-Path) names the outbox row, and so the kind of
 * mail, the issue and the reader. A report with a token that does not
 * verify is ignored: anyone can write to the bounce mailbox, and a forged
 * report must not take a reader off the list. A report with no token at
 * all is kept only when the address it names is a subscriber's.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import {
  hasBounceAddressForm,
  outboxIdOfBounceAddress,
} from "../../platform/outbox/bounce-address.ts";
import { type MailMessage, recipientAddress } from "../../platform/outbox/message.ts";
import type { NewReport } from "./record.ts";
import type { DeliveryReport } from "./reports.ts";

export interface BounceSigning {
  /** BOUNCE_ADDRESS: the base every message's bounce address is made from. */
  bounceAddress: string;
  secret: string;
}

type Traced = Omit<NewReport, "source" | "sourceKey">;

async function outboxMessage(db: Kysely<Database>, outboxId: number) {
  return db
    .selectFrom("outbox")
    .leftJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
    .select(["outbox.kind", "outbox.issue_id", "outbox.message", "subscriptions.email"])
    .where("outbox.id", "=", outboxId)
    .executeTakeFirst();
}

/** The address a stored outbox message went to: its subscriber's, or its own `to`. */
function addressOf(row: { message: string; email: string | null }): string | null {
  if (row.email) return row.email;
  const { to } = JSON.parse(row.message) as Partial<MailMessage>;
  return to ? recipientAddress(to) : null;
}

async function isSubscriber(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("subscriptions")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirst();
  return row !== undefined;
}

export async function traceReport(
  db: Kysely<Database>,
  report: DeliveryReport,
  { bounceAddress, secret }: BounceSigning,
  log: FastifyBaseLogger,
): Promise<Traced | null> {
  const candidates = [...report.addressedTo, report.originalReturnPath ?? ""]
    .map((address) => address.replace(/^<|>$/g, "").trim())
    .filter((address) => hasBounceAddressForm(bounceAddress, address));
  const signed = candidates
    .map((address) => outboxIdOfBounceAddress(bounceAddress, secret, address))
    .find((id) => id !== null);
  const base = { kind: report.kind, status: report.status, text: report.text };

  if (signed !== undefined && signed !== null) {
    const row = await outboxMessage(db, signed);
    // The address the message went to, not one it was forwarded to on the way.
    const email = (row ? addressOf(row) : null) ?? report.recipient;
    if (!email) return null;
    return {
      ...base,
      email,
      outboxId: signed,
      messageKind: row?.kind ?? null,
      issueId: row?.issue_id ?? null,
    };
  }
  if (candidates.length > 0) {
    log.warn({ addresses: candidates }, "report ignored: its bounce address is forged or mangled");
    return null;
  }
  if (report.recipient && (await isSubscriber(db, report.recipient))) {
    return { ...base, email: report.recipient, outboxId: null, messageKind: null, issueId: null };
  }
  log.info({ kind: report.kind }, "report ignored: it names no message and no subscriber of ours");
  return null;
}
