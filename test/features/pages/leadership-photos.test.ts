/**
 * The leaders' portraits on Who We Are: each name is the heading right under
 * its photo, so the photo's text alternative is empty and a screen reader
 * reads each name once, from the heading. Rendered by the real server build.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const [sqlite] = ENGINES;
const team: { fullname: string }[] = JSON.parse(readFileSync("content/team.json", "utf8"));

describe("the leaders' portraits", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { renderer });
  });
  afterAll(() => t.close());

  it("leave the name to the heading under each photo instead of repeating it", async () => {
    const html = (await t.app.inject({ url: ROUTES.weAre })).body;
    const slides = [
      ...html.matchAll(
        /<img class="leadership-slide__photo"([^>]*)>\s*<div class="leadership-slide__body"><h3 class="leadership-slide__name">([^<]*)<\/h3>/g,
      ),
    ];
    expect(slides.map((slide) => slide[2])).toEqual(team.map((member) => member.fullname));
    for (const [, attributes, name] of slides) {
      expect(attributes, name).toMatch(/ alt=""/);
    }
  });
});
