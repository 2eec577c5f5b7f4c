import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../platform/db/connection.ts";
import { migrateToLatest } from "../../platform/db/migrations.ts";
import { listCaseStudies, listItems, listTeam } from "./queries.ts";
import { seedOnce } from "./seed.ts";
import { readStoredFacts } from "./site-facts-rows.ts";

const SITE_JSON = JSON.parse(readFileSync("content/site.json", "utf8"));

describe("seedOnce", () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = openDatabase({ sqliteFile: ":memory:" });
    await migrateToLatest(database.db, database.engine);
  });
  afterEach(() => database.db.destroy());

  it("loads content/ into an empty database in file order", async () => {
    expect(await seedOnce(database.db, "content")).toBe(true);
    const team = JSON.parse(readFileSync("content/team.json", "utf8"));
    expect(await listTeam(database.db)).toEqual(team);
    const items = JSON.parse(readFileSync("content/items.json", "utf8"));
    expect(await listItems(database.db, "capabilities")).toEqual(items.capabilities);
    const caseStudies = JSON.parse(readFileSync("content/case-studies.json", "utf8"));
    expect(await listCaseStudies(database.db)).toEqual(
      caseStudies.map(({ outcomeFigure, outcomeLabel, ...study }: Record<string, unknown>) => ({
        ...study,
        outcome: { figure: outcomeFigure, label: outcomeLabel },
        datePublished: expect.any(String),
        dateModified: expect.any(String),
      })),
    );
    expect(await readStoredFacts(database.db)).toMatchObject({
      version: 1,
      facts: {
        mission: SITE_JSON.mission,
        newsletterInvitation: SITE_JSON.newsletterInvitation,
        contactInvitation: SITE_JSON.contactInvitation,
        contactEmail: SITE_JSON.contactEmail,
        networkUrl: SITE_JSON.networkUrl,
      },
    });
  });

  it("adds the site facts once to a database seeded before them, and keeps them after", async () => {
    await seedOnce(database.db, "content");
    await database.db.deleteFrom("site_facts").execute();
    await database.db.deleteFrom("site_meta").where("key", "=", "site_facts_seeded_at").execute();
    await expect(readStoredFacts(database.db)).rejects.toThrow(/site_facts has no mission/);

    expect(await seedOnce(database.db, "content")).toBe(true);
    expect((await readStoredFacts(database.db)).facts.mission).toBe(SITE_JSON.mission);

    await database.db
      .updateTable("site_facts")
      .set({ value: "Edited in the console." })
      .where("key", "=", "mission")
      .execute();
    expect(await seedOnce(database.db, "content")).toBe(false);
    expect((await readStoredFacts(database.db)).facts.mission).toBe("Edited in the console.");
  });

  it("adds the privacy notice once to a database seeded before it, keeping the facts as edited", async () => {
    await seedOnce(database.db, "content");
    await database.db.deleteFrom("site_facts").where("key", "=", "privacyNotice").execute();
    await database.db
      .deleteFrom("site_meta")
      .where("key", "=", "privacy_notice_seeded_at")
      .execute();
    await database.db
      .updateTable("site_facts")
      .set({ value: "Edited in the console.", version: 4 })
      .where("key", "=", "mission")
      .execute();
    await expect(readStoredFacts(database.db)).rejects.toThrow(/site_facts has no privacyNotice/);

    expect(await seedOnce(database.db, "content")).toBe(true);
    const stored = await readStoredFacts(database.db);
    expect(stored.facts.privacyNotice).toBe(readFileSync("content/privacy.md", "utf8").trim());
    expect(stored.facts.mission).toBe("Edited in the console.");
    expect(stored.version).toBe(4);
  });

  it("adds the case studies once to a database seeded before they existed", async () => {
    await seedOnce(database.db, "content");
    await database.db.deleteFrom("case_studies").execute();
    await database.db.deleteFrom("site_meta").where("key", "=", "case_studies_seeded_at").execute();
    await database.db.updateTable("team_members").set({ title: "Edited" }).execute();

    expect(await seedOnce(database.db, "content")).toBe(true);
    expect(await listCaseStudies(database.db)).toHaveLength(3);
    const titles = (await listTeam(database.db)).map((member) => member.title);
    expect(new Set(titles)).toEqual(new Set(["Edited"]));

    await database.db
      .deleteFrom("case_studies")
      .where("slug", "=", "finance-ar-forecast")
      .execute();
    expect(await seedOnce(database.db, "content")).toBe(false);
    expect(await listCaseStudies(database.db)).toHaveLength(2);
  });

  it("gives studies seeded before outcomes existed their figure once, keeping the firm's own", async () => {
    await seedOnce(database.db, "content");
    await database.db
      .updateTable("case_studies")
      .set({ outcome_figure: "", outcome_label: "" })
      .execute();
    await database.db
      .updateTable("case_studies")
      .set({ outcome_figure: "2×", outcome_label: "faster month-end close" })
      .where("slug", "=", "finance-ar-forecast")
      .execute();
    await database.db
      .deleteFrom("site_meta")
      .where("key", "=", "case_study_outcomes_seeded_at")
      .execute();

    expect(await seedOnce(database.db, "content")).toBe(true);
    const outcomes = (await listCaseStudies(database.db)).map((study) => study.outcome);
    expect(outcomes).toEqual([
      { figure: "2×", label: "faster month-end close" },
      { figure: "31%", label: "less unplanned downtime" },
      { figure: "27%", label: "more marketing revenue per email" },
    ]);

    // Cleared by the firm afterwards: the next start leaves it cleared.
    await database.db
      .updateTable("case_studies")
      .set({ outcome_figure: "", outcome_label: "" })
      .where("slug", "=", "e-commerce-automated-customer-targeting")
      .execute();
    expect(await seedOnce(database.db, "content")).toBe(false);
    expect((await listCaseStudies(database.db))[2]?.outcome).toBeUndefined();
  });

  it("runs only once, so edits and deletions made later are kept", async () => {
    await seedOnce(database.db, "content");
    await database.db.updateTable("team_members").set({ title: "Edited" }).execute();
    await database.db.deleteFrom("content_items").where("category", "=", "ethos").execute();

    expect(await seedOnce(database.db, "content")).toBe(false);
    const titles = (await listTeam(database.db)).map((member) => member.title);
    expect(new Set(titles)).toEqual(new Set(["Edited"]));
    expect(await listItems(database.db, "ethos")).toEqual([]);
  });

  it("refuses a malformed seed file with the file's name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    writeFileSync(join(dir, "team.json"), JSON.stringify([{ fullname: "No Title" }]));
    writeFileSync(join(dir, "items.json"), readFileSync("content/items.json"));
    await expect(seedOnce(database.db, dir)).rejects.toThrow(/team\.json/);
  });

  it("refuses items.json when its capabilities differ from the fixed list", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const items = JSON.parse(readFileSync("content/items.json", "utf8"));
    items.capabilities[0].name = "Quantum Computing";
    writeFileSync(join(dir, "team.json"), readFileSync("content/team.json"));
    writeFileSync(join(dir, "items.json"), JSON.stringify(items));
    const error = await seedOnce(database.db, dir).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(String(error).split("items.json", 2)[1]).toContain(
      "must describe exactly these capabilities: App Development",
    );
  });

  it("refuses site.json when a fact breaks the console's rules", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    for (const file of ["team.json", "items.json", "case-studies.json", "privacy.md"]) {
      writeFileSync(join(dir, file), readFileSync(join("content", file)));
    }
    writeFileSync(
      join(dir, "site.json"),
      JSON.stringify({ ...SITE_JSON, networkUrl: "http://www.linkedin.com/company/x" }),
    );
    const error = await seedOnce(database.db, dir).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(String(error).split("site.json", 2)[1]).toContain("starts with https://");
  });
});
