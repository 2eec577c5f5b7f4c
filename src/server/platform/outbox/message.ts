import { randomUUID } from "node:crypto";

/** An e-mail as the outbox stores it: everything needed to send it again, unchanged. */
export interface Address {
  name: string;
  address: string;
}

export interface MailMessage {
  /** Fixed when the message is queued, so a retried message keeps its identity. */
  messageId: string;
  from: string;
  to: string | Address;
  replyTo?: Address;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/**
 * A newsletter copy as the outbox stores it: only its identity, fixed when
 * queued. The issue is stored once, in its issue; the sender composes each
 * copy when it sends it.
 */
export interface NewsletterRef {
  messageId: string;
}

/** A new Message-ID in the sender's domain (taken from the From address). */
export function newMessageId(from: string): string {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? "localhost";
  return `<${randomUUID()}@${domain}>`;
}
