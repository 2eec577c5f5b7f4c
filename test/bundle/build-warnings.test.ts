/**
 * The site's build says nothing about deprecated options or React Router's
 * coming changes, so a new warning in its output stands out. The site's
 * build is the step that printed them (the console's and the server's
 * print none); it runs here into a folder of its own.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * React Router 7 loads react-router.config.ts through a Vite server of its
 * own, started with an option Vite 8 deprecated; no configuration of ours
 * reaches that server (ADR 068). It starts once for the command and once for
 * the plugin.
 */
const CONFIG_LOADER_WARNING =
  "The `envFile` option is deprecated, please use `envDir: false` instead.";
const CONFIG_LOADER_STARTS = 2;

describe("the site's build output", () => {
  it("has no deprecation or React Router future-flag warning but the config loader's", () => {
    const buildDir = mkdtempSync(join(tmpdir(), "site-build-"));
    const build = spawnSync(join("node_modules", ".bin", "react-router"), ["build"], {
      encoding: "utf8",
      env: { ...process.env, BUILD_DIR: buildDir, NO_COLOR: "1" },
    });
    expect(build.status).toBe(0);
    const warnings = `${build.stdout}\n${build.stderr}`
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /deprecat|future/i.test(line));
    expect(warnings.filter((line) => line !== CONFIG_LOADER_WARNING)).toEqual([]);
    expect(warnings.length).toBeLessThanOrEqual(CONFIG_LOADER_STARTS);
  }, 120_000);
});
