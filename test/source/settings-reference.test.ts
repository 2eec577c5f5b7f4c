/**
 * The settings reference is what the settings slices say: the tables of
 * docs/operations/configuration.md and .env.example are generated from
 * them (scripts/settings-reference.ts), so a setting added, removed or
 * reworded in its slice without the command run fails here. Every slice
 * declared is composed, and a feature's slice stays a leaf the composition
 * can load without the feature.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CONFIGURATION_DOC,
  ENV_EXAMPLE,
  envExample,
  REGENERATE,
  settingsTables,
  withTables,
} from "../../scripts/settings-reference.ts";
import { PLATFORM_SLICES } from "../../src/server/platform/server-settings.ts";
import { FEATURE_SLICES } from "../../src/server/settings.ts";

const ROOT = join(import.meta.dirname, "../..");
const SERVER = "src/server";

const stale = (file: string) =>
  `${file} differs from the settings slices it is generated from: run \`${REGENERATE}\` and commit the result (a setting's text is changed in the server-settings.ts that declares it, never in ${file})`;

/** Every settings slice file of the server, as a path from the repository's root. */
function sliceFiles(): string[] {
  return readdirSync(join(ROOT, SERVER), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith("server-settings.ts"))
    .map((file) => join(SERVER, file));
}

describe("the settings reference", () => {
  it("in the configuration document is the one the slices make", () => {
    const written = readFileSync(join(ROOT, CONFIGURATION_DOC), "utf8");
    expect(written, stale(CONFIGURATION_DOC)).toBe(withTables(written, settingsTables()));
  });

  it("in .env.example is the one the slices make", () => {
    const written = readFileSync(join(ROOT, ENV_EXAMPLE), "utf8");
    expect(written, stale(ENV_EXAMPLE)).toBe(envExample());
  });
});

describe("the settings slices", () => {
  it("are each composed into the server's settings", async () => {
    const composed = new Set<unknown>([...PLATFORM_SLICES, ...FEATURE_SLICES]);
    const files = sliceFiles();
    expect(files.length).toBeGreaterThan(10);
    const forgotten: string[] = [];
    for (const file of files) {
      const module: Record<string, unknown> = await import(join(ROOT, file));
      for (const [name, value] of Object.entries(module)) {
        if (value instanceof z.ZodObject && !composed.has(value))
          forgotten.push(`${file}: ${name}`);
      }
    }
    expect(forgotten, "add each slice to PLATFORM_SLICES or FEATURE_SLICES").toEqual([]);
  });

  it("of the features import only zod, src/shared and the platform's kinds of value", () => {
    const allowed = [/^zod$/, /^(\.\.\/){3}shared\//, /^\.\.\/\.\.\/platform\/setting-kinds\.ts$/];
    const reaching = sliceFiles()
      .filter((file) => file.includes("/features/"))
      .flatMap((file) =>
        [...readFileSync(join(ROOT, file), "utf8").matchAll(/ from "([^"]+)";$/gm)]
          .map((match) => match[1] as string)
          .filter((source) => !allowed.some((rule) => rule.test(source)))
          .map((source) => `${file}: ${source}`),
      );
    expect(reaching).toEqual([]);
  });
});
