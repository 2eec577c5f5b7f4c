import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_CATEGORIES } from "../../../src/shared/content-categories.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const seedTeam = JSON.parse(readFileSync("content/team.json", "utf8"));
const seedItems = JSON.parse(readFileSync("content/items.json", "utf8"));
/** The seed's case studies as the public API answers them: without the outcome Home shows. */
const seedCaseStudies = JSON.parse(readFileSync("content/case-studies.json", "utf8")).map(
  ({ outcomeFigure, outcomeLabel, ...study }: Record<string, unknown>) => study,
);

describe.each(ENGINES)("content API on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  it.each(["/api/v1/teams/", "/api/v1/teams"])(
    "GET %s lists the team in display order",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(seedTeam);
    },
  );

  it.each(CONTENT_CATEGORIES)(
    "GET /api/v1/items/?category=%s lists that category in order",
    async (category) => {
      for (const url of [
        `/api/v1/items/?category=${category}`,
        `/api/v1/items?category=${category}`,
      ]) {
        const response = await t.app.inject({ method: "GET", url });
        expect(response.statusCode).toBe(200);
        // The menu's line is the pages' own: the API's answer leaves it out.
        const asServed = seedItems[category].map(
          ({ menuLine: _menuLine, ...item }: Record<string, string>) => item,
        );
        expect(response.json()).toEqual(asServed);
      }
    },
  );

  it("GET /api/v1/case-studies/ lists the case studies with their paragraphs", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/v1/case-studies/" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(seedCaseStudies);
  });

  it("sends a list compressed as asked, with an ETag that answers 304 until the content changes", async () => {
    const url = "/api/v1/items/?category=ethos";
    const plain = await t.app.inject({ url });
    const br = await t.app.inject({ url, headers: { "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const etag = String(plain.headers.etag);
    expect((await t.app.inject({ url, headers: { "if-none-match": etag } })).statusCode).toBe(304);

    const before = await t.database.db
      .selectFrom("content_items")
      .select(["id", "description"])
      .where("category", "=", "ethos")
      .execute();
    try {
      await t.app.content.edit((trx) =>
        trx
          .updateTable("content_items")
          .set({ description: "Changed." })
          .where("category", "=", "ethos")
          .execute(),
      );
      const changed = await t.app.inject({ url, headers: { "if-none-match": etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()[0].description).toBe("Changed.");
    } finally {
      // The other tests read the seeded descriptions.
      await t.app.content.edit(async (trx) => {
        for (const { id, description } of before) {
          await trx
            .updateTable("content_items")
            .set({ description })
            .where("id", "=", id)
            .execute();
        }
      });
    }
  });

  it("gives imagePath only where the category has images", async () => {
    const industries = (await t.app.inject({ url: "/api/v1/items/?category=industries" })).json();
    const ethos = (await t.app.inject({ url: "/api/v1/items/?category=ethos" })).json();
    expect(industries.every((item: { imagePath?: string }) => item.imagePath)).toBe(true);
    expect(ethos.some((item: { imagePath?: string }) => "imagePath" in item)).toBe(false);
  });

  it.each([
    ["a missing", "/api/v1/items/"],
    ["an unknown", "/api/v1/items/?category=weather"],
  ])("answers 400 for %s category", async (_case, url) => {
    const response = await t.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.stringMatching(/category/) });
  });
});
