/**
 * `npm run content:import -- --from DIR`: loads or updates
 * content from the seed's JSON files, versions each real change as "import",
 * and changes nothing on a second run.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTENT_FILE_MAX_BYTES } from "../../../src/server/features/content/index.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { nodeArgs } from "../../support/entry.ts";

const NEW_ETHOS = { name: "Plain Words", description: "We explain what we do without jargon." };
const NEW_BIO = "Ava now also chairs the firm's ethics board.";

/** A copy of content/, as the seed reads it. */
function contentCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "content-"));
  cpSync("content", dir, { recursive: true });
  return dir;
}

/** A copy of content/ with one bio changed and one ethos card added. */
function editedContent(): string {
  const dir = contentCopy();
  const team = JSON.parse(readFileSync(join(dir, "team.json"), "utf8"));
  team[0].bio = NEW_BIO;
  writeFileSync(join(dir, "team.json"), JSON.stringify(team));
  const items = JSON.parse(readFileSync(join(dir, "items.json"), "utf8"));
  items.ethos.push(NEW_ETHOS);
  writeFileSync(join(dir, "items.json"), JSON.stringify(items));
  return dir;
}

describe.each(ENGINES)("content import on $engine", (engine) => {
  // Each test imports into a site of its own, just seeded from content/:
  // what an import finds to add or update depends on every earlier import.
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp(engine);
  });
  afterEach(() => t.close());

  /** Runs the command against the test app's database, as a person would. */
  async function spawnImport(from: string) {
    const database = t.config.DATABASE_URL
      ? { DATABASE_URL: t.config.DATABASE_URL }
      : { SQLITE_FILE: t.config.SQLITE_FILE };
    const child = spawn(
      process.execPath,
      [...nodeArgs("src/server/cli/content-import.ts"), "--from", from],
      { env: { ...process.env, ...database }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    const collect = (chunk: unknown) => {
      output += String(chunk);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const [code] = await once(child, "exit");
    return { code, output };
  }

  async function runImport(from: string) {
    const { code, output } = await spawnImport(from);
    expect(code, output).toBe(0);
    return output;
  }

  const versionCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom("content_versions")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("changes nothing when the site already has the files' content", async () => {
    const output = await runImport("content");
    expect(output).toMatch(/^0 added, 0 updated, \d+ unchanged\.$/m);
    expect(await versionCount()).toBe(0);
  });

  it("adds new records and updates changed ones, each a version by import", async () => {
    const output = await runImport(editedContent());
    expect(output).toContain("added    Ethos: Plain Words");
    expect(output).toContain("updated  Team: Ava Thompson");
    expect(output).toMatch(/^1 added, 1 updated, \d+ unchanged\.$/m);

    const versions = await t.database.db
      .selectFrom("content_versions")
      .select(["entity", "version", "author", "data"])
      .orderBy("id")
      .execute();
    expect(versions.map(({ entity, version, author }) => [entity, version, author])).toEqual([
      ["team", 1, "seed"],
      ["team", 2, "import"],
      ["item", 1, "import"],
    ]);
    expect(JSON.parse(versions[1]?.data ?? "{}").fields.bio).toBe(NEW_BIO);

    // On PostgreSQL the running server hears of it at once (the change feed);
    // on SQLite it shows the change after a restart, or when anything else changes.
    if (engine.engine === "sqlite") t.app.content.changed();
    await expect
      .poll(async () => (await t.app.inject({ url: "/api/v1/teams/" })).json()[0].bio)
      .toBe(NEW_BIO);
    const ethos = (await t.app.inject({ url: "/api/v1/items/?category=ethos" })).json();
    expect(ethos.at(-1)).toEqual(NEW_ETHOS);
  });

  it("changes nothing on a second run of the same files", async () => {
    const dir = editedContent();
    expect(await runImport(dir)).toMatch(/^1 added, 1 updated, \d+ unchanged\.$/m);
    const before = await versionCount();
    const output = await runImport(dir);
    expect(output).toMatch(/^0 added, 0 updated, \d+ unchanged\.$/m);
    expect(await versionCount()).toBe(before);
  });

  it("updates the site facts from site.json as one version by import, once", async () => {
    const dir = contentCopy();
    const site = JSON.parse(readFileSync(join(dir, "site.json"), "utf8"));
    const mission = "We make technology serve the business, one engagement at a time.";
    writeFileSync(join(dir, "site.json"), JSON.stringify({ ...site, mission }));

    const output = await runImport(dir);
    expect(output).toContain("updated  Site facts");
    expect(output).toMatch(/^0 added, 1 updated, \d+ unchanged\.$/m);
    const versions = await t.database.db
      .selectFrom("content_versions")
      .select(["version", "author", "data"])
      .where("entity", "=", "site-facts")
      .orderBy("version")
      .execute();
    expect(versions.map(({ version, author }) => [version, author])).toEqual([
      [1, "seed"],
      [2, "import"],
    ]);
    expect(JSON.parse(versions[1]?.data ?? "{}")).toMatchObject({
      mission,
      contactEmail: site.contactEmail,
    });
    if (engine.engine === "sqlite") t.app.content.changed();
    await expect.poll(async () => (await t.app.content.facts()).mission).toBe(mission);

    expect(await runImport(dir)).toMatch(/^0 added, 0 updated, \d+ unchanged\.$/m);
  });

  it("refuses a file larger than the limit, reading no further, and imports nothing", async () => {
    const dir = editedContent();
    const file = join(dir, "team.json");
    // Still valid, and within every rule: only its size is wrong.
    const padded = readFileSync(file, "utf8") + " ".repeat(CONTENT_FILE_MAX_BYTES);
    writeFileSync(file, padded);
    const before = await versionCount();
    const { code, output } = await spawnImport(dir);
    expect(code).toBe(1);
    expect(output).toContain(
      `Invalid seed file ${file}: it is larger than 1 MB, the most a content file may be.`,
    );
    expect(await versionCount()).toBe(before);
  });

  it("names the record and the rule when a file breaks one, and imports nothing", async () => {
    const dir = editedContent();
    const team = JSON.parse(readFileSync(join(dir, "team.json"), "utf8"));
    team[1].title = "x".repeat(200);
    team[2].bio = "Changed, but not imported: nothing is while one record breaks a rule.";
    writeFileSync(join(dir, "team.json"), JSON.stringify(team));
    const before = await versionCount();
    const { code, output } = await spawnImport(dir);
    expect(code).toBe(1);
    expect(output).toContain("Team “Daniel Okafor”: title Keep it to 160 characters.");
    expect(await versionCount()).toBe(before);
  });
});
