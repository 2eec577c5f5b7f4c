import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LAZY_LOAD_TIMEOUT_MS } from "../../shared/constants.ts";
import { withTimeout } from "./lazy-with-timeout.ts";

describe("withTimeout", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fails a part that is still loading after LAZY_LOAD_TIMEOUT_MS (120 000 ms)", async () => {
    const loading = withTimeout(new Promise(() => {}), LAZY_LOAD_TIMEOUT_MS);
    const outcome = expect(loading).rejects.toThrow("timed out after 120000 ms");
    await vi.advanceTimersByTimeAsync(LAZY_LOAD_TIMEOUT_MS);
    await outcome;
  });

  it("passes through a part that loads in time, and its failures", async () => {
    const slowButInTime = new Promise((resolve) =>
      setTimeout(() => resolve("module"), LAZY_LOAD_TIMEOUT_MS - 1),
    );
    const loading = withTimeout(slowButInTime, LAZY_LOAD_TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(LAZY_LOAD_TIMEOUT_MS - 1);
    await expect(loading).resolves.toBe("module");
    await expect(withTimeout(Promise.reject(new Error("chunk failed")), 10)).rejects.toThrow(
      "chunk failed",
    );
  });
});
