/**
 * The import rules in biome.json hold: for each rule, a file that breaks it
 * fails `biome lint`, and a file beside it that keeps it passes. The probe
 * files are written where the rule applies, linted in one run, and removed.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);

interface Probe {
  rule: string;
  /** The folder the probe is written to, from the repository's root. */
  folder: string;
  source: string;
  /** The lint rule the probe must break; null when it must pass. */
  breaks: "noRestrictedImports" | "noImportCycles" | null;
}

const PROBES: Probe[] = [
  {
    rule: "the platform imports no feature",
    folder: "src/server/platform/ops",
    source:
      'import { SiteContent } from "../../features/content/index.ts";\nexport const probe = SiteContent;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "the platform never imports the app's composition of the settings",
    folder: "src/server/platform",
    source: 'import { loadConfig } from "../settings.ts";\nexport const probe = loadConfig;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "the platform imports no feature (kept)",
    folder: "src/server/platform/ops",
    source: 'import { readEnvFile } from "../config.ts";\nexport const probe = readEnvFile;\n',
    breaks: null,
  },
  {
    rule: "a feature reaches another only through its index.ts",
    folder: "src/server/features/pages",
    source:
      'import { ContentEditor } from "../content/editing.ts";\nexport const probe = ContentEditor;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a feature reaches another only through its index.ts (kept)",
    folder: "src/server/features/pages",
    source:
      'import { SiteContent } from "../content/index.ts";\nimport { pageFormService } from "./form-service.ts";\nimport { openDatabase } from "../../platform/db/connection.ts";\nexport const probe = [SiteContent, pageFormService, openDatabase];\n',
    breaks: null,
  },
  {
    rule: "a feature never imports the app",
    folder: "src/server/features/people",
    source: 'import { buildApp } from "../../app.ts";\nexport const probe = buildApp;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a test under test/ reaches a feature only through its index.ts",
    folder: "test/features/pages",
    source:
      'import { formService } from "../../../src/server/features/pages/form-service.ts";\nexport const probe = formService;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a test's support reaches a feature only through its index.ts",
    folder: "test/support",
    source:
      'import { seedOnce } from "../../src/server/features/content/seed.ts";\nexport const probe = seedOnce;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a test under test/ reaches a feature only through its index.ts (kept)",
    folder: "test/features/pages",
    source:
      'import { buildApp } from "../../../src/server/app.ts";\nimport { loadPageRenderer } from "../../../src/server/features/pages/index.ts";\nimport { openDatabase } from "../../../src/server/platform/db/connection.ts";\nexport const probe = [buildApp, loadPageRenderer, openDatabase];\n',
    breaks: null,
  },
  {
    rule: "no import cycles (kept)",
    // src/server/platform/db/connection.ts imports schema.ts, which must not import it back.
    folder: "src/server/platform/db",
    source:
      'import { openDatabase } from "./connection.ts";\nimport type { Database } from "./schema.ts";\nexport const probe: [typeof openDatabase, Database?] = [openDatabase];\n',
    breaks: null,
  },
  {
    rule: "src/shared imports neither web nor server",
    folder: "src/shared",
    source: 'import { buildApp } from "../server/app.ts";\nexport const probe = buildApp;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "src/web imports no server code",
    folder: "src/web/features",
    source: 'import { buildApp } from "../../server/app.ts";\nexport const probe = buildApp;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "web components import no web feature",
    folder: "src/web/components",
    source:
      'import { InquiryForm } from "../features/contact/InquiryForm.tsx";\nexport const probe = InquiryForm;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a browser test never opens the database",
    folder: "e2e",
    source:
      'import { openDatabase } from "../src/server/platform/db/connection.ts";\nexport const probe = openDatabase;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a browser test never opens the database through a driver",
    folder: "e2e/support",
    source: 'import Database from "better-sqlite3";\nexport const probe = Database;\n',
    breaks: "noRestrictedImports",
  },
  {
    rule: "a browser test never opens the database (kept: a seed's type)",
    folder: "e2e",
    source:
      'import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";\nexport type Probe = DatabaseHandle;\n',
    breaks: null,
  },
];

/** A pair of files importing each other: the cycle rule's probe. */
const CYCLE_FOLDER = "src/server/platform/ops";

const tag = randomUUID().slice(0, 8);
const written: string[] = [];
/** Each probed folder's times before its probe, put back after: the build stays current. */
const folderTimes = new Map<string, { atime: Date; mtime: Date }>();
const found = new Map<string, string[]>();

function write(folder: string, name: string, source: string): string {
  const path = `${folder}/${name}`;
  if (!folderTimes.has(folder)) {
    const { atime, mtime } = statSync(join(ROOT, folder));
    folderTimes.set(folder, { atime, mtime });
  }
  writeFileSync(join(ROOT, path), source);
  written.push(path);
  return path;
}

const probePaths = PROBES.map((probe, index) =>
  join(probe.folder, `lint-probe-${tag}-${index}.ts`),
);
const cycleA = `${CYCLE_FOLDER}/lint-probe-${tag}-cycle-a.ts`;
const cycleB = `${CYCLE_FOLDER}/lint-probe-${tag}-cycle-b.ts`;

beforeAll(async () => {
  for (const [index, probe] of PROBES.entries()) {
    write(probe.folder, `lint-probe-${tag}-${index}.ts`, probe.source);
  }
  write(
    CYCLE_FOLDER,
    `lint-probe-${tag}-cycle-a.ts`,
    `import { b } from "./lint-probe-${tag}-cycle-b.ts";\nexport const a = () => b;\n`,
  );
  write(
    CYCLE_FOLDER,
    `lint-probe-${tag}-cycle-b.ts`,
    `import { a } from "./lint-probe-${tag}-cycle-a.ts";\nexport const b = () => a;\n`,
  );
  const biome = join(ROOT, "node_modules/.bin/biome");
  const output = await run(biome, ["lint", "--max-diagnostics=200", "--colors=off", ...written], {
    cwd: ROOT,
  }).then(
    ({ stdout, stderr }) => stdout + stderr,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
  );
  for (const match of output.matchAll(/^(\S+?):\d+:\d+ lint\/\w+\/(\w+)/gm)) {
    const [, file = "", rule = ""] = match;
    found.set(file, [...(found.get(file) ?? []), rule]);
  }
}, 60_000);

afterAll(() => {
  for (const path of written) rmSync(join(ROOT, path), { force: true });
  for (const [folder, { atime, mtime }] of folderTimes)
    utimesSync(join(ROOT, folder), atime, mtime);
});

describe("import rules (biome.json)", () => {
  PROBES.forEach((probe, index) => {
    const path = probePaths[index] ?? "";
    it(`${probe.rule}: ${probe.breaks ? `a wrong import fails ${probe.breaks}` : "a right import passes"}`, () => {
      const rules = found.get(path) ?? [];
      if (probe.breaks) expect(rules).toContain(probe.breaks);
      else expect(rules).toEqual([]);
    });
  });

  it("no import cycles: two files importing each other fail noImportCycles", () => {
    expect(found.get(cycleA)).toContain("noImportCycles");
    expect(found.get(cycleB)).toContain("noImportCycles");
  });

  it("the rule that keeps each feature in its room names every feature folder", () => {
    const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as {
      overrides: {
        includes: string[];
        linter?: {
          rules?: {
            style?: { noRestrictedImports?: { options?: { patterns?: { group: string[] }[] } } };
          };
        };
      }[];
    };
    const rule = config.overrides.find(({ includes }) =>
      includes.includes("src/server/features/**"),
    );
    const named = (rule?.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [])
      .flatMap(({ group }) => group)
      .filter((entry) => entry.startsWith("../") && entry.endsWith("/**"))
      .map((entry) => entry.slice("../".length, -"/**".length))
      // The app's own files and the command-line tools, two levels up: no feature.
      .filter((name) => !name.startsWith("."));
    const folders = readdirSync(join(ROOT, "src/server/features"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(named.sort()).toEqual(folders.sort());
  });
});
