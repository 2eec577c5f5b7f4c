/**
 * What Home and the Who We Serve menu put forward, from the firm's content:
 * the case studies' outcome figures, the latest case study and the latest
 * Insight issue on Home, the featured case study and a line under every
 * entry in the menu. Each part follows a console save at once, and a part
 * the content has nothing for is not there. Rendered by the real server build.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import items from "../../../content/items.json" with { type: "json" };
import { CONTENT_API, type Entry, type ListAnswer } from "../../../src/shared/admin/content.ts";
import { highlightsOf } from "../../../src/shared/highlights.ts";
import { menuOf } from "../../../src/web/layout/menu.ts";
import { siteEntriesOf } from "../../../src/web/lib/site-entries.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

/** The menu as the seeded content makes it. */
const SEEDED_MENU = menuOf(siteEntriesOf(items));

const [sqlite] = ENGINES;

/** The HTML between an element's opening tag that holds `marker` and the section's end. */
function sectionWith(html: string, marker: string): string {
  return new RegExp(`<section[^>]*${marker}[\\s\\S]*?</section>`).exec(html)?.[0] ?? "";
}

describe("Home's proof and the menu's featured case study", () => {
  let t: TestApp;
  let editor: ConsoleClient;
  /** The case studies as seeded, which each test starts from. */
  let seeded: Entry[];
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { renderer });
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
    seeded = await studies();
  });
  afterAll(() => t.close());
  // Each test starts from the seeded site, whatever an earlier one saved or
  // sent: the studies' fields as seeded (saved back through the console) and
  // no issue (deleted through app.content.edit, so the cached pages follow).
  beforeEach(async () => {
    await t.app.content.edit((trx) => trx.deleteFrom("issues").execute());
    const current = await studies();
    for (const original of seeded) {
      const study = current.find((entry) => entry.id === original.id);
      if (!study) throw new Error(`case study ${original.id} is gone`);
      if (!isDeepStrictEqual(study.fields, original.fields)) await save(study, original.fields);
    }
  });

  const home = async () => {
    const response = await t.app.inject({ url: "/" });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  const studies = async () =>
    ((await (await editor.request("GET", `${CONTENT_API}/case-studies`)).json()) as ListAnswer)
      .entries;
  async function save(study: Entry, fields: Record<string, string>) {
    const response = await editor.request("PUT", `${CONTENT_API}/case-studies/${study.id}`, {
      fields: { ...study.fields, ...fields },
      hidden: study.hidden,
      version: study.version,
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  it("shows each seeded case study's figure, linking to the study, and no Insight issue while none was sent", async () => {
    const outcomes = sectionWith(await home(), 'aria-labelledby="home-outcomes-title"');
    for (const [slug, figure, label] of [
      ["finance-ar-forecast", "38%", "more accurate 90-day cash forecast"],
      ["manufacturing-product-maintenance-forecast", "31%", "less unplanned downtime"],
      ["e-commerce-automated-customer-targeting", "27%", "more marketing revenue per email"],
    ] as const) {
      expect(outcomes).toContain(`>${figure}</p>`);
      expect(outcomes).toContain(`>${label}</p>`);
      expect(outcomes).toContain(`href="/weserve/case-studies/${slug}"`);
    }
    const latest = sectionWith(await home(), 'aria-labelledby="home-latest-title"');
    expect(latest).toContain("Latest case study");
    expect(latest).toContain(
      'href="/weserve/case-studies/e-commerce-automated-customer-targeting"',
    );
    expect(latest).not.toContain("Latest Insight issue");
  });

  it("features the first case study in every page's menu, with a line under every entry", async () => {
    const [first] = await studies();
    for (const url of ["/", "/wedo", "/contact-us"]) {
      const html = (await t.app.inject({ url })).body;
      const panel = /<div class="mega-panel" id="panel-serve"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
      expect(panel, url).toContain("Featured case study");
      expect(panel, url).toContain(`href="/weserve/case-studies/${first?.fields.slug}"`);
      // React's render parts two texts with an empty comment.
      expect(panel, url).toMatch(
        /<strong>38%<\/strong> (?:<!-- -->)?more accurate 90-day cash forecast/,
      );
      for (const group of SEEDED_MENU.flatMap((section) => section.groups)) {
        expect(html, `${url}: ${group.label}`).toContain(`>${group.line}</p>`);
        for (const link of group.links) {
          expect(html, `${url}: ${link.label}`).toContain(
            `>${link.line.replaceAll("'", "&#x27;")}</p>`,
          );
        }
      }
    }
  });

  it("follows a console save at once, and drops the figures when no study has one", async () => {
    const [finance, manufacturing, commerce] = (await studies()) as [Entry, Entry, Entry];
    await save(finance, { outcomeFigure: "2×", outcomeLabel: "faster month-end close" });
    expect(await home()).toContain(">2×</p>");
    for (const study of [finance, manufacturing, commerce]) {
      const [current] = (await studies()).filter((entry) => entry.id === study.id) as [Entry];
      await save(current, { outcomeFigure: "", outcomeLabel: "" });
    }
    const html = await home();
    expect(html).not.toContain('id="home-outcomes-title"');
    expect(html).not.toContain("Measured results");
    // The featured study keeps its place in the menu, without a figure.
    expect(html).toContain("Featured case study");
    expect(html).not.toContain("<strong>2×</strong>");
  });

  it("shows the latest Insight issue once one was sent, linking to its page", async () => {
    const now = "2026-11-12T09:00:00.000Z";
    await t.app.content.edit((trx) =>
      trx
        .insertInto("issues")
        .values({
          slug: "cash-forecasting-that-finance-trusts",
          title: "Cash forecasting that finance trusts",
          summary: "How a weekly model turned receivables from a guess into a plan.",
          body: "Markdown",
          status: "sent",
          started_at: now,
          web_html: "<p>The issue.</p>",
          author: "Ava Thompson",
          created_at: now,
          updated_at: now,
        })
        .execute(),
    );
    const latest = sectionWith(await home(), 'aria-labelledby="home-latest-title"');
    expect(latest).toContain("Latest Insight issue");
    expect(latest).toContain('href="/insight/cash-forecasting-that-finance-trusts"');
    expect(latest).toContain("How a weekly model turned receivables from a guess into a plan.");
    expect(latest).toMatch(/datetime="2026-11-12T09:00:00.000Z"[^>]*>November 12, 2026</i);
  });
});

describe("highlightsOf", () => {
  const study = (
    slug: string,
    datePublished: string,
    outcome?: { figure: string; label: string },
  ) => ({
    slug,
    title: `Sector ${slug}: Topic`,
    summary: "Summary.",
    opportunity: [],
    solution: [],
    work: [],
    datePublished,
    ...(outcome ? { outcome } : {}),
  });

  it("puts nothing forward for a site with no case study and no issue", () => {
    expect(highlightsOf([], [])).toEqual({
      outcomes: [],
      featured: null,
      latestCaseStudy: null,
      latestIssue: null,
    });
  });

  it("takes at most three figures in the firm's order, the first study as featured and the newest as latest", () => {
    const figure = { figure: "1%", label: "x" };
    const list = [
      study("a", "2026-01-01T00:00:00.000Z"),
      study("b", "2026-03-01T00:00:00.000Z", figure),
      study("c", "2026-02-01T00:00:00.000Z", figure),
      study("d", "2026-01-01T00:00:00.000Z", figure),
      study("e", "2026-01-01T00:00:00.000Z", figure),
    ];
    const highlights = highlightsOf(list, []);
    expect(highlights.outcomes.map((outcome) => outcome.slug)).toEqual(["b", "c", "d"]);
    expect(highlights.outcomes[0]?.sector).toBe("Sector b");
    expect(highlights.featured?.slug).toBe("a");
    expect(highlights.featured?.outcome).toBeUndefined();
    expect(highlights.latestCaseStudy?.slug).toBe("b");
  });
});
