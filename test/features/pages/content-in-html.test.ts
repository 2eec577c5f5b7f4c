/**
 * The served HTML carries the database's content, and a
 * change made through the content module shows in the next response, with
 * no rebuild or restart. Rendered by the real server build (npm test builds
 * it first), on both engines.
 */
import { readFileSync } from "node:fs";
import escapeHtml from "escape-html";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseStudyPath } from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const team = JSON.parse(readFileSync("content/team.json", "utf8"));
const items = JSON.parse(readFileSync("content/items.json", "utf8"));
const caseStudies = JSON.parse(readFileSync("content/case-studies.json", "utf8"));

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

function texts(list: { name: string; description: string }[]) {
  return list.flatMap(({ name, description }) => [name, description]);
}

describe.each(ENGINES)("content in the served HTML on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
  });
  afterAll(() => t.close());

  const page = async (url: string) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };

  it.each([
    [
      "/weare",
      () => [
        ...team.flatMap((m: Record<string, string>) => [m.fullname, m.title, m.bio]),
        ...texts(items.ethos),
      ],
    ],
    ["/wedo", () => texts(items.capabilities)],
    [
      "/weserve",
      () => [
        ...texts(items.industries),
        ...texts(items.techneeds),
        ...caseStudies.flatMap((s: Record<string, string>) => [s.title, s.summary]),
      ],
    ],
  ])("%s holds every text of its lists", async (url, expected) => {
    const html = await page(url);
    for (const text of expected()) expect(html).toContain(asHtml(text));
  });

  it("each case study's page holds its whole text", async () => {
    for (const study of caseStudies) {
      const html = await page(caseStudyPath(study.slug));
      for (const paragraph of [...study.opportunity, ...study.solution, ...study.work]) {
        expect(html).toContain(asHtml(paragraph));
      }
    }
  });

  it("a change through the content module shows in the next page and API answer", async () => {
    const before = await t.app.inject({ url: "/weare" });
    const [first] = team;
    const retitle = (title: string) =>
      t.app.content.edit((trx) =>
        trx
          .updateTable("team_members")
          .set({ title })
          .where("fullname", "=", first.fullname)
          .execute(),
      );
    await retitle("Chief Listening Officer");
    try {
      const after = await t.app.inject({ url: "/weare" });
      expect(after.body).toContain("Chief Listening Officer");
      expect(after.body).not.toContain(`>${asHtml(first.title)}<`);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const api = (await t.app.inject({ url: "/api/v1/teams/" })).json();
      expect(api[0].title).toBe("Chief Listening Officer");
    } finally {
      // The other tests read the team as content/ has it.
      await retitle(first.title);
    }
  });

  it("a new case study gets its page and its place in the sitemap at once", async () => {
    const slug = "logistics-route-planning";
    expect((await t.app.inject({ url: caseStudyPath(slug) })).statusCode).toBe(404);
    await t.app.content.edit((trx) =>
      trx
        .insertInto("case_studies")
        .values({
          slug,
          position: 9,
          title: "Logistics: Route Planning",
          summary: "A regional carrier planned its routes with our optimiser.",
          opportunity: "Routes were planned by hand.",
          solution: "An optimiser.\n\nA dispatcher's screen.",
          work: "Eight weeks, two people.",
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute(),
    );
    try {
      const html = await page(caseStudyPath(slug));
      expect(html).toContain("A dispatcher&#x27;s screen.");
      expect(await page("/weserve")).toContain("Logistics: Route Planning");
      expect(await page("/sitemap.xml")).toContain(caseStudyPath(slug));
    } finally {
      // The other tests read the case studies as content/ has them.
      await t.app.content.edit((trx) =>
        trx.deleteFrom("case_studies").where("slug", "=", slug).execute(),
      );
    }
  });
});
