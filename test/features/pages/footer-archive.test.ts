/**
 * The footer's invitation to the Insight archive: "Read past issues" leads
 * somewhere only once an issue was sent, so a site with none does not offer
 * it. Rendered by the real server build.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

/** The footer of the page at `url`. */
async function footerOf(t: TestApp, url: string): Promise<string> {
  const response = await t.app.inject({ url });
  expect(response.statusCode, url).toBe(200);
  return /<footer class="site-footer">[\s\S]*<\/footer>/.exec(response.body)?.[0] ?? "";
}

const PAST_ISSUES = /<a [^>]*href="\/insight"[^>]*>Read past issues<\/a>/;

describe.each(ENGINES)("the footer's link to past Insight issues on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
  });
  afterAll(() => t.close());
  // Each test starts with no issue, whatever an earlier one sent; written
  // through app.content.edit, so the cached pages follow.
  beforeEach(() => t.app.content.edit((trx) => trx.deleteFrom("issues").execute()));

  it("is absent while no issue was sent, the invitation and the form still there", async () => {
    const facts = await t.app.content.facts();
    for (const url of ["/", "/wedo"]) {
      const footer = await footerOf(t, url);
      expect(footer, url).toContain(facts.newsletterInvitation);
      expect(footer, url).toContain(">Subscribe<");
      expect(footer, url).not.toContain("Read past issues");
    }
  });

  it("leads to the archive once an issue was sent", async () => {
    const now = new Date().toISOString();
    await t.app.content.edit((trx) =>
      trx
        .insertInto("issues")
        .values({
          slug: "the-first-issue",
          title: "The first issue",
          summary: "What the first issue is about, in one sentence.",
          body: "Markdown",
          status: "sent",
          started_at: now,
          web_html: "<p>The first issue.</p>",
          author: "Ava Thompson",
          created_at: now,
          updated_at: now,
        })
        .execute(),
    );
    for (const url of ["/", "/wedo"]) expect(await footerOf(t, url), url).toMatch(PAST_ISSUES);
  });
});
