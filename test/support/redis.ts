/**
 * The Redis the shared rate-limit tests count in: TEST_REDIS_URL, or those
 * tests are skipped with the reason below. Each test app gets a key prefix
 * of its own, so test files running side by side never share a counter.
 */
import { randomBytes } from "node:crypto";

export const REDIS_URL = process.env.TEST_REDIS_URL;
export const REDIS_SKIP_REASON = "Redis tests skipped: TEST_REDIS_URL is not set";

/** Environment for a server counting in the test Redis under a fresh prefix. */
export function redisEnv(url: string): Record<string, string> {
  return { REDIS_URL: url, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString("hex")}:` };
}
