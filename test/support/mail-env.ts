/**
 * Environment for a test app whose outbox sender delivers to a test SMTP
 * server, fast: the app runs its own sender, as in production.
 */
export const FAST_OUTBOX = {
  OUTBOX_POLL_MS: "50",
  OUTBOX_MAX_ATTEMPTS: "10",
  OUTBOX_RETRY_BASE_MS: "20",
  OUTBOX_RETRY_MAX_MS: "200",
};

export function mailTo(smtpUrl: string, overrides: Record<string, string> = {}) {
  return { ...FAST_OUTBOX, SMTP_URL: smtpUrl, ...overrides };
}
