/** §3 and §5: the newsletter subscription. */

export const EMAIL_MAX_LENGTH = 254;

/** Addresses are compared without surrounding spaces and without regard to case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
