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
 * Marks a message a program wrote, not a person: out-of-office and other
 * automatic replies leave it unanswered (RFC 3834), so they never write
 * back to the firm, or to a visitor named as its Reply-To.
 */
export const AUTO_SUBMITTED = { "Auto-Submitted": "auto-generated" } as const;

/** The one address a message is sent to. */
export function recipientAddress(to: MailMessage["to"]): string {
  return typeof to === "string" ? to : to.address;
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

/**
 * The lower-cased domain of an address (after its last @), by which bulk
 * mail is paced; null for an address without one.
 */
export function addressDomain(address: string): string | null {
  const at = address.lastIndexOf("@");
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return at < 0 || domain === "" ? null : domain;
}
