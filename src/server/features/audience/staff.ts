/**
 * The firm's own people are not its audience. Their console session cookie
 * stays on the console's paths (/api/admin), so the public pages never see
 * it; instead, every console answer to a signed-in person carries a second
 * cookie for the whole site, naming the session (its stored id, signed), and
 * a page view that brings a mark whose session is still live is not counted.
 *
 * Checking the signature costs one HMAC on the request's path; whether the
 * session is live is asked of the database after the answer has gone, at
 * most once a minute per session. Forging the mark gains nothing but not
 * being counted, which `DNT: 1` gives anyone anyway.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { liveSessionUser, type SessionLimits } from "../../platform/console/sessions.ts";
import type { Database } from "../../platform/db/schema.ts";

export const STAFF_COOKIE = "console_staff";

const PURPOSE = "audience-staff-mark:v1";
const MARK_PATTERN = /^[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/;
const LIVE_CHECKED_MS = 60_000;
/** Sessions whose liveness is remembered at once; more empties the memory. */
const MAX_REMEMBERED = 1000;

export function staffMarks(
  secret: string,
  db: Kysely<Database>,
  limits: SessionLimits,
  now: () => number,
) {
  const key = createHmac("sha256", secret).update(PURPOSE).digest();
  const signature = (sessionId: string) =>
    createHmac("sha256", key).update(sessionId).digest("base64url");
  const checked = new Map<string, { live: boolean; until: number }>();

  /** The session a mark names, if this server signed it. */
  function sessionOf(mark: string): string | null {
    if (!MARK_PATTERN.test(mark)) return null;
    const [sessionId = "", given = ""] = mark.split(".");
    const expected = Buffer.from(signature(sessionId));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected)
      ? sessionId
      : null;
  }

  return {
    /** The mark of console session `sessionId`. */
    mark(sessionId: string): string {
      return `${sessionId}.${signature(sessionId)}`;
    },
    /** Whether a request's mark is a signed one: a view bringing one waits for isLive(). */
    signed(mark: string | undefined): mark is string {
      return mark !== undefined && sessionOf(mark) !== null;
    },
    /** Whether the session a signed mark names is live. */
    async isLive(mark: string): Promise<boolean> {
      const sessionId = sessionOf(mark);
      if (sessionId === null) return false;
      const at = now();
      const known = checked.get(sessionId);
      if (known && known.until > at) return known.live;
      const live = (await liveSessionUser(db, sessionId, limits, new Date(at))) !== undefined;
      if (checked.size >= MAX_REMEMBERED) checked.clear();
      checked.set(sessionId, { live, until: at + LIVE_CHECKED_MS });
      return live;
    },
  };
}
