/**
 * The release a server runs is package.json's version, and it is told:
 * /readyz carries it for whoever deploys, and CHANGELOG.md says what it
 * brings (docs/operations/upgrades.md: how a release is cut).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION_PATH } from "../../../src/shared/admin/version.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

describe("the release", () => {
  let t: TestApp;
  beforeAll(async () => {
    const [sqlite] = ENGINES;
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { withPages: false });
  });
  afterAll(() => t.close());

  it("is in /readyz's answer, as package.json names it", async () => {
    const ready = await t.app.inject({ url: "/readyz" });
    expect(ready.json()).toEqual({ status: "ready", version: VERSION });
  });

  it("is what the console's version call answers", async () => {
    const answer = await t.app.inject({ url: VERSION_PATH });
    expect(answer.json()).toEqual({ version: VERSION });
  });

  it("is a semantic version with an entry in CHANGELOG.md", () => {
    expect(VERSION.split(".").map(Number).every(Number.isInteger)).toBe(true);
    expect(VERSION.split(".")).toHaveLength(3);
    const headings = readFileSync("CHANGELOG.md", "utf8")
      .split("\n")
      // What is merged but not yet released sits under its own heading above the releases.
      .filter((line) => line.startsWith("## [") && line !== "## [Unreleased]");
    expect(headings[0]).toMatch(
      new RegExp(`^## \\[${VERSION.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`),
    );
  });
});
