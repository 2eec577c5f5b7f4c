/**
 * Delivers one message: over SMTP when SMTP_URL is set, otherwise into a
 * local mailbox folder, one .eml file per message, so nothing is dropped on a
 * machine without a mail server.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, unlinkSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER, tighten } from "../security/owner-only.ts";
import { type MailMessage, recipientAddress } from "./message.ts";

export interface Mailer {
  /**
   * Resolves once the server (or the folder) has accepted the message.
   * `bounceAddress`, when given, is the envelope sender reports come back to.
   */
  send(message: MailMessage, bounceAddress?: string): Promise<void>;
  close(): void;
  readonly description: string;
}

/** A receiving server's permanent refusal of the recipient itself (a 5xx to RCPT TO). */
export interface RecipientRefusal {
  code: number;
  response: string;
}

/**
 * The refusal in a failed send when the server refused the recipient for
 * good. Other 5xx answers (to the sender, the login, the content) say
 * nothing about the address and are not one.
 */
export function recipientRefusal(error: unknown): RecipientRefusal | null {
  const { command, responseCode, response } = (error ?? {}) as {
    command?: unknown;
    responseCode?: unknown;
    response?: unknown;
  };
  if (command !== "RCPT TO" || typeof responseCode !== "number") return null;
  if (responseCode < 500 || responseCode > 599) return null;
  return { code: responseCode, response: typeof response === "string" ? response : "" };
}

/**
 * A receiving server's "not now": a 4xx (the domain is busy or throttles the
 * sender), or a connection it closed mid-send without a reply the client
 * could read (`code` null).
 */
export interface Deferral {
  code: number | null;
  response: string;
}

/**
 * The answers by which a receiving server asks a sender to slow down or come
 * back later: closing (421, also at the greeting), mailbox busy (450), local
 * error or rate limit (451), too much at once (452).
 */
const DEFERRING_CODES = new Set([421, 450, 451, 452]);

/**
 * The deferral in a failed send, at whichever command the server answered
 * with it. A server closes the connection as it sends a 421; when the close
 * is read before the reply, the pool can only say that the connection
 * closed under the message (ECONNECTION with no reply), which is taken for
 * the same.
 */
export function deferral(error: unknown): Deferral | null {
  const { code, responseCode, response, message } = (error ?? {}) as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    message?: unknown;
  };
  if (typeof responseCode === "number") {
    if (!DEFERRING_CODES.has(responseCode)) return null;
    return { code: responseCode, response: typeof response === "string" ? response : "" };
  }
  if (code !== "ECONNECTION") return null;
  return { code: null, response: typeof message === "string" ? message : "" };
}

/** Together well under OUTBOX_LEASE_MS, so a slow server cannot outlast a sender's claim. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

function toNodemailer(message: MailMessage, bounceAddress: string | undefined) {
  return {
    ...(bounceAddress
      ? { envelope: { from: bounceAddress, to: recipientAddress(message.to) } }
      : {}),
    messageId: message.messageId,
    from: message.from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.headers ? { headers: message.headers } : {}),
  };
}

/** The DKIM key every message is signed with (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE). */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
  /** The headers signed, colon-separated (dkim.ts: DKIM_SIGNED_HEADERS). */
  headerFieldNames: string;
}

export function smtpMailer(url: string, dkim?: DkimKey): Mailer {
  // One kept-open connection: the sender delivers one message at a time, and
  // a new connection per message pays the handshakes and the server's
  // greeting each time (against a local smtp-server, 115 ms a message
  // against 9 ms pooled): a newsletter's copies would crawl.
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 1,
    // A connection the server closes mid-send (as after a 421) fails the
    // message instead of the pool sending it again on its own: the sender
    // decides when to try again, and a deferring domain is not tried before
    // its wait is over.
    maxRequeues: 0,
    ...SMTP_TIMEOUTS,
    ...(dkim ? { dkim } : {}),
  });
  return {
    description: `SMTP ${new URL(url).host}`,
    async send(message, bounceAddress) {
      await transport.sendMail(toNodemailer(message, bounceAddress));
    },
    close: () => transport.close(),
  };
}

export const MESSAGE_SUFFIX = ".eml";
/** A message being written: renamed to its MESSAGE_SUFFIX name once whole. */
const PARTIAL_SUFFIX = `${MESSAGE_SUFFIX}.tmp`;

/**
 * Removes the messages a crash left half-written (killed between writing the
 * .tmp and renaming it). None was lost: the sender records a message as sent
 * only after send() resolves, past the rename (OutboxSender.deliver, markSent),
 * so its outbox row stayed pending under a claim whose lease runs out, and the
 * next claim (claimQuery in platform/outbox/queue.ts) writes it again, whole.
 */
function removePartialMessages(dir: string, log: FastifyBaseLogger): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const removed = names.filter((name) => name.endsWith(PARTIAL_SUFFIX));
  for (const name of removed) unlinkSync(join(dir, name));
  if (removed.length > 0)
    log.warn({ dir, removed }, "removed half-written mail files left by a crash");
}

export function mailboxMailer(dir: string, log: FastifyBaseLogger, dkim?: DkimKey): Mailer {
  removePartialMessages(dir, log);
  tighten(dir);
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
    ...(dkim ? { dkim } : {}),
  });
  return {
    description: `mailbox folder ${dir}`,
    async send(message, bounceAddress) {
      // A folder stands in for the reader's mailbox, so the message gets the
      // Return-Path the receiving server would add from the envelope.
      const delivered = bounceAddress
        ? { ...message, headers: { ...message.headers, "Return-Path": `<${bounceAddress}>` } }
        : message;
      const info = await transport.sendMail(toNodemailer(delivered, bounceAddress));
      await mkdir(dir, { recursive: true, mode: OWNER_ONLY_FOLDER });
      const file = join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}${MESSAGE_SUFFIX}`,
      );
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: OWNER_ONLY_FILE });
      await rename(`${file}.tmp`, file);
      // Not the subject: an inquiry's notification names the visitor and their company in it.
      log.info({ file }, "mail written to the local mailbox folder");
    },
    close: () => transport.close(),
  };
}
