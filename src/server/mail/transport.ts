/**
 * Delivers one message: over SMTP when SMTP_URL is set, otherwise into a
 * local mailbox folder, one .eml file per message, so nothing is dropped on a
 * machine without a mail server.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { MailMessage } from "./message.ts";

export interface Mailer {
  /** Resolves once the server (or the folder) has accepted the message. */
  send(message: MailMessage): Promise<void>;
  close(): void;
  readonly description: string;
}

/** Together well under OUTBOX_LEASE_MS, so a slow server cannot outlast a sender's claim. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

function toNodemailer(message: MailMessage) {
  return {
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

export function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    description: `SMTP ${new URL(url).host}`,
    async send(message) {
      await transport.sendMail(toNodemailer(message));
    },
    close: () => transport.close(),
  };
}

export function mailboxMailer(dir: string, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  return {
    description: `mailbox folder ${dir}`,
    async send(message) {
      const info = await transport.sendMail(toNodemailer(message));
      await mkdir(dir, { recursive: true });
      const file = join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
      );
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log.info({ file, subject: message.subject }, "mail written to the local mailbox folder");
    },
    close: () => transport.close(),
  };
}
