import { describe, expect, it } from "vitest";
import { growthOf, growthOfAsync } from "./growth.ts";

// The parsers' linear-time tests rest on this check: it must see the
// difference, or they would pass whatever the parsers did.
describe("the growth check", () => {
  it("passes linear work", () => {
    const growth = growthOf(
      (size) => "a".repeat(size),
      (text) => text.split("").reverse().join(""),
      1024,
    );
    expect(growth.ratio).toBeLessThan(8);
  });

  it("fails quadratic work: a pattern that tries every dash as its start", () => {
    const quoteMarker = /^(?:-{2,}[^\n]*original message[^\n]*)$/im;
    const growth = growthOf(
      (size) => `${"-".repeat(size)}\n--ORIGINAL MESSAGE`,
      (text) => quoteMarker.exec(text),
      256,
    );
    expect(growth.ratio).toBeGreaterThan(8);
  });

  it("tells the same apart when the work answers with a promise", async () => {
    const quoteMarker = /^(?:-{2,}[^\n]*original message[^\n]*)$/im;
    const linear = await growthOfAsync(
      (size) => "a".repeat(size),
      async (text) => text.split("").reverse().join(""),
      1024,
    );
    const quadratic = await growthOfAsync(
      (size) => `${"-".repeat(size)}\n--ORIGINAL MESSAGE`,
      async (text) => quoteMarker.exec(text),
      256,
    );
    expect(linear.ratio).toBeLessThan(8);
    expect(quadratic.ratio).toBeGreaterThan(8);
  });
});
