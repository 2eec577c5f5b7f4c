/**
 * Every kind of mail the site queues, named where it is queued. The
 * outbox's figures count each from the start, at 0 before its first
 * message: an alert that watches a count rise cannot see one that first
 * appears already risen. enqueueMail takes no other kind, so a new kind of
 * mail is added here or does not compile.
 */
export const MAIL_KINDS = [
  "inquiry-notification",
  "inquiry-acknowledgement",
  "welcome",
  "subscription-confirmation",
  "account-invite",
  "account-reset",
  "newsletter",
  "newsletter-test",
  "send-paused",
  "mail-settings-test",
  "backup-failed",
  "audience-digest",
] as const;

export type MailKind = (typeof MAIL_KINDS)[number];
