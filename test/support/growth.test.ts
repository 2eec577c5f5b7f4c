import { describe, expect, it } from "vitest";
import { growthOf } from "./growth.ts";

// The parsers' linear-time tests rest on this check: it must see the
// difference, or they would pass whatever the parsers did.
describe("the growth check", () => {
  const dashes = (size: number) => `${"-".repeat(size)}\n--ORIGINAL MESSAGE`;
  // What a backtracking pattern does, written out: from every dash as a
  // start, a search to the marker. (A regular expression no longer shows
  // it surely: Node 24's engine turns linear after enough backtracking.)
  const fromEveryDash = (text: string) => {
    let found = 0;
    for (let start = 0; text[start] === "-"; start += 1) {
      let end = start;
      while (text[end] === "-") end += 1;
      if (text.startsWith("\n--ORIGINAL MESSAGE", end)) found += 1;
    }
    return found;
  };

  it("passes linear work", async () => {
    const growth = await growthOf(
      (size) => "a".repeat(size),
      (text) => text.split("").reverse().join(""),
      16_384,
    );
    expect(growth.ratio).toBeLessThan(8);
  });

  it("fails quadratic work: a pattern that tries every dash as its start", async () => {
    const growth = await growthOf(dashes, fromEveryDash, 4_096);
    expect(growth.ratio).toBeGreaterThan(8);
  });

  it("tells the same apart when the work answers with a promise", async () => {
    const linear = await growthOf(
      (size) => "a".repeat(size),
      async (text) => text.split("").reverse().join(""),
      16_384,
    );
    const quadratic = await growthOf(dashes, async (text) => fromEveryDash(text), 4_096);
    expect(linear.ratio).toBeLessThan(8);
    expect(quadratic.ratio).toBeGreaterThan(8);
  });
});
