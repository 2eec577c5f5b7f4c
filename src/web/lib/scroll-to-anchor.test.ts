import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANCHOR_SCROLL_RETRY_MS } from "../../shared/constants.ts";
import { scrollToAnchor } from "./scroll-to-anchor.ts";

describe("scrollToAnchor", () => {
  let target: { scrollIntoView: ReturnType<typeof vi.fn> } | null;
  const getElementById = vi.fn(() => target);

  beforeEach(() => {
    vi.useFakeTimers();
    target = null;
    getElementById.mockClear();
    vi.stubGlobal("document", { getElementById });
    vi.stubGlobal("window", { matchMedia: () => ({ matches: false }) });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("scrolls smoothly at once when the target exists", () => {
    target = { scrollIntoView: vi.fn() };
    scrollToAnchor("ethos");
    expect(getElementById).toHaveBeenCalledWith("ethos");
    expect(target.scrollIntoView).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
  });

  it("keeps looking until the target appears within the retry window", () => {
    scrollToAnchor("leadership");
    vi.advanceTimersByTime(ANCHOR_SCROLL_RETRY_MS - 500);
    target = { scrollIntoView: vi.fn() };
    vi.advanceTimersByTime(200);
    expect(target.scrollIntoView).toHaveBeenCalledTimes(1);
  });

  it("gives up quietly after the retry window", () => {
    scrollToAnchor("missing");
    vi.advanceTimersByTime(ANCHOR_SCROLL_RETRY_MS + 200);
    const calls = getElementById.mock.calls.length;
    target = { scrollIntoView: vi.fn() };
    vi.advanceTimersByTime(5000);
    expect(getElementById.mock.calls.length).toBe(calls);
    expect(target.scrollIntoView).not.toHaveBeenCalled();
  });

  it("stops when cancelled, e.g. by a newer navigation", () => {
    const cancel = scrollToAnchor("later");
    cancel();
    target = { scrollIntoView: vi.fn() };
    vi.advanceTimersByTime(1000);
    expect(target.scrollIntoView).not.toHaveBeenCalled();
  });
});
