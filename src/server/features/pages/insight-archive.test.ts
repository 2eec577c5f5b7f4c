/**
 * The Insight archive on the site: /insight lists the
 * issues whose send began and was not cancelled, newest first; each has its
 * page with its body, Open Graph tags and an Article; the sitemap and the Atom
 * feed carry them; the pages follow a change written through
 * app.content.edit; and the console's preview renders a draft's page without
 * publishing it. Rendered by the real server build (npm test builds it first),
 * on both engines.
 */
import { createHash } from "node:crypto";
import escapeHtml from "escape-html";
import type { Transaction } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import type { IssueStatus } from "../../../shared/admin/newsletter.ts";
import type { InsightIssue, InsightSummary } from "../../../shared/insight.ts";
import type { ContentReader } from "../../../shared/page-context.ts";
import { INSIGHT_FEED_PATH, INSIGHT_PATH, insightIssuePath } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";
import type { Database } from "../../platform/db/schema.ts";
import { hashInlineContent } from "./inline-scripts.ts";
import { FEED_ENTRIES, feedIssues } from "./insight-feed.ts";
import { policyForPage } from "./page-cache.ts";

const ORIGIN = "https://www.firm.example";
const [sqlite] = ENGINES;

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");
/** How the feed writes a text (& < > " ' escaped). */
const asXml = (text: string) => escapeHtml(text);
/** The feed's escaped text read back. */
const fromXml = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

/** An issue body as the Markdown renderer writes it: relative and absolute addresses, a quote, a list. */
const BODY = `<h2>What changed</h2>
<p>Read the <a href="/weserve/case-studies/finance-ar-forecast">case study</a>, the <a href="#notes">notes</a> and <a href="https://example.com/a?b=1&amp;c=2">the paper</a>.</p>
<p><img src="/images/share.png" alt="A chart &amp; its legend"></p>
<blockquote>
<p>The forecast became a meeting agenda.</p>
</blockquote>
<ul>
<li>Weekly</li>
<li>Explained</li>
</ul>
`;

interface Row {
  slug: string;
  title: string;
  status: IssueStatus;
  startedAt?: string;
  scheduledAt?: string;
  /** Rendered when the send was asked for; a draft has none. */
  html?: string;
}

const summaryOf = (slug: string) => `What ${slug} is about, in one sentence for the archive.`;

/** Inserts an issue in the transaction of an edit. */
function insertIssue(trx: Transaction<Database>, row: Row) {
  const now = new Date().toISOString();
  return trx
    .insertInto("issues")
    .values({
      slug: row.slug,
      title: row.title,
      summary: summaryOf(row.slug),
      body: "Markdown the archive never shows",
      status: row.status,
      started_at: row.startedAt ?? null,
      scheduled_at: row.scheduledAt ?? null,
      web_html: row.html ?? null,
      author: "Ava Thompson",
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Writes an issue as the people who send issues do: through app.content.edit. */
async function addIssue(t: TestApp, row: Row) {
  await t.app.content.edit((trx) => insertIssue(trx, row));
}

const TRICKY_TITLE = `Data & AI: <when> "less" is 'more'`;

/** Published: the send began, and goes on, waits or is done. Newest first. */
const PUBLISHED: Row[] = [
  {
    slug: "paused-in-march",
    title: "Paused in March",
    status: "paused",
    startedAt: "2026-03-12T09:00:00.000Z",
    html: BODY,
  },
  {
    slug: "queuing-in-march",
    title: "Queuing in March",
    status: "queuing",
    startedAt: "2026-03-01T09:00:00.000Z",
    html: "<p>Queuing.</p>\n",
  },
  {
    slug: "sending-in-february",
    title: TRICKY_TITLE,
    status: "sending",
    startedAt: "2026-02-10T09:00:00.000Z",
    html: "<p>Sending.</p>\n",
  },
  {
    slug: "sent-in-january",
    title: "Sent in January",
    status: "sent",
    startedAt: "2026-01-14T09:00:00.000Z",
    html: "<p>Sent.</p>\n",
  },
];

/** Not published: never sent, waiting for its time, or cancelled after it began. */
const UNPUBLISHED: Row[] = [
  { slug: "a-draft", title: "A draft", status: "draft" },
  {
    slug: "a-scheduled-issue",
    title: "A scheduled issue",
    status: "scheduled",
    scheduledAt: "2099-01-01T09:00:00.000Z",
    html: "<p>Scheduled.</p>\n",
  },
  {
    slug: "a-cancelled-issue",
    title: "A cancelled issue",
    status: "cancelled",
    startedAt: "2026-03-20T09:00:00.000Z",
    html: "<p>Cancelled.</p>\n",
  },
];

function metaContent(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (match) => JSON.parse(String(match[1])) as Record<string, unknown>,
  );
}

const FEED_LINK =
  /<link rel="alternate" type="application\/atom\+xml" href="\/insight\/feed\.xml" title="[^"]+"\/>/;

describe.each(ENGINES)("the Insight archive on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // The newsletter's dispatcher would move these issues on (queuing to
    // sending to sent) on its next poll, and announce each move, dropping the
    // cached pages in the middle of a test: it polls once as the app starts,
    // before there is any issue, and not again while the tests run.
    t = await startApp(
      engine,
      { PUBLIC_ORIGIN: ORIGIN, OUTBOX_POLL_MS: String(3_600_000) },
      { renderer },
    );
  });
  afterAll(() => t.close());
  // Each test starts from these issues alone, whatever an earlier one
  // published or withdrew: written in one edit, so the cached pages follow.
  beforeEach(() =>
    t.app.content.edit(async (trx) => {
      await trx.deleteFrom("issues").execute();
      // Out of order, so that the order shown is the archive's own.
      for (const row of [...UNPUBLISHED, ...PUBLISHED].reverse()) await insertIssue(trx, row);
    }),
  );

  const get = (url: string) => t.app.inject({ url });
  const page = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };
  /** The titles of the issues /insight lists, in its order. */
  const listed = (html: string) =>
    [...html.matchAll(/<a class="insight-card__link"[^>]*href="\/insight\/([^"]+)"/g)].map(
      (match) => match[1],
    );

  it("lists only the published issues, newest first, each with its date, title and summary", async () => {
    const html = await page(INSIGHT_PATH);
    expect(listed(html)).toEqual(PUBLISHED.map((row) => row.slug));
    for (const row of PUBLISHED) {
      expect(html).toContain(asHtml(row.title));
      expect(html).toContain(asHtml(summaryOf(row.slug)));
      expect(html).toContain(`<time class="insight-card__date" dateTime="${row.startedAt}">`);
    }
    for (const row of UNPUBLISHED) expect(html).not.toContain(row.title);
    expect(html).toContain("March 12, 2026");
    expect(html).toMatch(FEED_LINK);
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/insight"/>`);
    expect(metaContent(html, "og:type")).toBe("website");
  });

  it("shows an issue as an article: its body, Open Graph tags and an Article", async () => {
    const [newest] = PUBLISHED as [Row];
    const html = await page(insightIssuePath(newest.slug));
    const url = `${ORIGIN}/insight/${newest.slug}`;
    expect(html).toContain(`insight-prose">${BODY}</div>`);
    expect(html).toContain(`<h1 id="insight-issue-title" class="insight-issue__title">`);
    expect(html).toMatch(/<a href="\/insight"[^>]*>Insight archive<\/a>/);
    expect(html).toMatch(FEED_LINK);
    expect(html).toContain(`<title>Paused in March · Insight | ${SITE.firmName}</title>`);
    expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(metaContent(html, "description")).toBe(summaryOf(newest.slug));
    expect(metaContent(html, "og:type")).toBe("article");
    expect(metaContent(html, "og:url")).toBe(url);
    expect(metaContent(html, "og:title")).toBe(`Paused in March · Insight | ${SITE.firmName}`);
    expect(metaContent(html, "article:published_time")).toBe(newest.startedAt);
    const articles = jsonLd(html).filter((thing) => thing["@type"] === "Article");
    expect(articles).toEqual([
      expect.objectContaining({
        "@context": "https://schema.org",
        headline: newest.title,
        description: summaryOf(newest.slug),
        datePublished: newest.startedAt,
        // A sent issue is never rewritten: its web page is the one rendered for the send.
        dateModified: newest.startedAt,
        url,
        mainEntityOfPage: url,
        publisher: expect.objectContaining({ "@type": "Organization", name: SITE.firmName }),
        author: expect.objectContaining({ name: SITE.firmName }),
      }),
    ]);
  });

  it("carries the archive's stylesheet on the archive's pages alone, allowed by their policy", async () => {
    const ARCHIVE_STYLE = /<style data-precedence="default" data-href="insight">([^<]*)<\/style>/;
    for (const path of [INSIGHT_PATH, insightIssuePath(PUBLISHED[0]?.slug ?? "")]) {
      const response = await get(path);
      const css = ARCHIVE_STYLE.exec(response.body)?.[1] ?? "";
      expect(css, path).toContain(".insight-prose");
      const hash = createHash("sha256").update(css).digest("base64");
      expect(response.headers["content-security-policy"]).toContain(`'sha256-${hash}'`);
    }
    for (const path of ["/", "/weserve", "/insight/no-such-issue"]) {
      expect((await get(path)).body, path).not.toContain(".insight-prose");
    }
  });

  it("writes a title with & < > and quotes as text, in the page and in its Article", async () => {
    const tricky = PUBLISHED.find((row) => row.title === TRICKY_TITLE) as Row;
    const html = await page(insightIssuePath(tricky.slug));
    expect(html).toContain(`>${asHtml(TRICKY_TITLE)}</h1>`);
    expect(html).not.toContain("<when>");
    const [article] = jsonLd(html).filter((thing) => thing["@type"] === "Article");
    expect(article?.headline).toBe(TRICKY_TITLE);
  });

  it.each([
    ["a slug no issue has", "no-such-issue"],
    ...UNPUBLISHED.map((row) => [`a ${row.status} issue`, row.slug]),
  ])("answers %s with Home's content and 404", async (_what, slug) => {
    const response = await get(insightIssuePath(String(slug)));
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain('<h1 id="home-hero-title"');
    expect(metaContent(response.body, "robots")).toBe("noindex");
    expect(response.body).not.toContain(`class="insight-issue__measure insight-prose"`);
  });

  it("lists the archive and every published issue in the sitemap, and nothing else of it", async () => {
    const sitemap = await page("/sitemap.xml");
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const archive = locations.filter((url) => url?.startsWith(`${ORIGIN}/insight`));
    expect(archive).toEqual([
      `${ORIGIN}/insight`,
      ...PUBLISHED.map((row) => `${ORIGIN}/insight/${row.slug}`),
    ]);
  });

  it("serves the Atom feed: each published issue with its address, dates, summary and body", async () => {
    const response = await get(INSIGHT_FEED_PATH);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const feed = response.body;
    expect(feed).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/,
    );
    expect(feed).toContain(
      `<link rel="self" type="application/atom+xml" href="${ORIGIN}/insight/feed.xml"/>`,
    );
    expect(feed).toContain(`<id>${ORIGIN}/insight</id>`);
    const [newest] = PUBLISHED as [Row];
    expect(feed).toContain(`<updated>${newest.startedAt}</updated>`);

    const entries = [...feed.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((match) => match[1]);
    expect(entries).toHaveLength(PUBLISHED.length);
    for (const [index, row] of PUBLISHED.entries()) {
      const entry = String(entries[index]);
      const url = `${ORIGIN}/insight/${row.slug}`;
      expect(entry).toContain(`<id>${url}</id>`);
      expect(entry).toContain(`<link rel="alternate" type="text/html" href="${url}"/>`);
      expect(entry).toContain(`<title type="text">${asXml(row.title)}</title>`);
      expect(entry).toContain(`<summary type="text">${asXml(summaryOf(row.slug))}</summary>`);
      expect(entry).toContain(`<published>${row.startedAt}</published>`);
      expect(entry).toContain(`<updated>${row.startedAt}</updated>`);
    }
    for (const row of UNPUBLISHED) expect(feed).not.toContain(row.slug);
    // Escaped once, so that nothing in a title can open an element of the feed.
    expect(feed).toContain(
      '<title type="text">Data &amp; AI: &lt;when&gt; &quot;less&quot; is &#39;more&#39;</title>',
    );
    expect(feed).not.toContain("<when>");
  });

  it("carries each body as escaped HTML with its relative addresses made absolute", async () => {
    const feed = await page(INSIGHT_FEED_PATH);
    const content = /<content type="html">([\s\S]*?)<\/content>/.exec(feed)?.[1] ?? "";
    const issueUrl = `${ORIGIN}/insight/paused-in-march`;
    expect(content).not.toMatch(/[<>"]/);
    expect(fromXml(content)).toBe(
      BODY.replace('href="/weserve/', `href="${ORIGIN}/weserve/`)
        .replace('href="#notes"', `href="${issueUrl}#notes"`)
        .replace('src="/images/', `src="${ORIGIN}/images/`),
    );
    // Addresses that name their scheme stay as written, entities and all.
    expect(fromXml(content)).toContain('href="https://example.com/a?b=1&amp;c=2"');
  });

  it("keeps the archive in memory until a change comes through app.content.edit", async () => {
    const [, second] = PUBLISHED as [Row, Row];
    const before = await get(INSIGHT_PATH);
    // Written behind the content's back: the served pages do not know of it yet.
    await t.database.db
      .updateTable("issues")
      .set({ status: "cancelled" })
      .where("slug", "=", second.slug)
      .execute();
    const stale = await get(INSIGHT_PATH);
    expect(stale.headers.etag).toBe(before.headers.etag);
    expect(listed(stale.body)).toContain(second.slug);

    // The newsletter announces a change with an edit, here as on every instance.
    await t.app.content.edit(async () => undefined);
    const after = await get(INSIGHT_PATH);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(listed(after.body)).not.toContain(second.slug);
    expect((await get(insightIssuePath(second.slug))).statusCode).toBe(404);
    expect(await page("/sitemap.xml")).not.toContain(second.slug);
    expect(await page(INSIGHT_FEED_PATH)).not.toContain(second.slug);
  });

  it("publishes an issue whose send begins, and withdraws one that is cancelled", async () => {
    const slug = "begins-in-april";
    await addIssue(t, { slug, title: "Begins in April", status: "draft" });
    expect((await get(insightIssuePath(slug))).statusCode).toBe(404);

    await t.app.content.edit((trx) =>
      trx
        .updateTable("issues")
        .set({
          status: "queuing",
          started_at: "2026-04-02T09:00:00.000Z",
          web_html: "<p>April's news.</p>\n",
        })
        .where("slug", "=", slug)
        .execute(),
    );
    expect(listed(await page(INSIGHT_PATH))[0]).toBe(slug);
    expect(await page(insightIssuePath(slug))).toContain(`insight-prose"><p>April's news.</p>`);
    expect(await page("/sitemap.xml")).toContain(`${ORIGIN}/insight/${slug}`);
    expect(await page(INSIGHT_FEED_PATH)).toContain(`<id>${ORIGIN}/insight/${slug}</id>`);

    await t.app.content.edit((trx) =>
      trx.updateTable("issues").set({ status: "cancelled" }).where("slug", "=", slug).execute(),
    );
    expect(listed(await page(INSIGHT_PATH))).not.toContain(slug);
    expect((await get(insightIssuePath(slug))).statusCode).toBe(404);
    expect(await page(INSIGHT_FEED_PATH)).not.toContain(slug);
  });

  it("previews a draft's page with the page's policy, publishing and caching nothing", async () => {
    const [newest] = PUBLISHED as [Row];
    const drafts: InsightIssue[] = [
      {
        slug: "still-a-draft",
        title: "Still a draft",
        summary: "Written, not sent.",
        publishedAt: "2026-05-01T09:00:00.000Z",
        html: "<p>The draft's own words.</p>\n",
      },
      // A new version of a published issue's text shows as written, not as published.
      {
        slug: newest.slug,
        title: "Paused in March, rewritten",
        summary: "Rewritten.",
        publishedAt: String(newest.startedAt),
        html: "<p>Rewritten body.</p>\n",
      },
    ];
    for (const draft of drafts) {
      const { html, csp } = await t.app.insightPreview(draft);
      expect(html).toContain(`insight-prose">${draft.html}</div>`);
      expect(html).toContain(`>${asHtml(draft.title)}</h1>`);
      expect(html).toContain('<footer class="site-footer"');
      expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/insight/${draft.slug}"/>`);
      expect(csp).toBe(policyForPage(html, t.app.pagePolicy));
      const { scripts, styles } = hashInlineContent(html);
      expect(scripts.length).toBeGreaterThan(0);
      for (const hash of [...scripts, ...styles]) expect(csp).toContain(`'${hash}'`);
    }
    expect((await get(insightIssuePath("still-a-draft"))).statusCode).toBe(404);
    expect(listed(await page(INSIGHT_PATH))).not.toContain("still-a-draft");
    const published = await page(insightIssuePath(newest.slug));
    expect(published).toContain(`insight-prose">${BODY}</div>`);
    expect(published).not.toContain("Rewritten body.");
  });
});

describe("the archive's preview without a page build", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { withPages: false });
  });
  afterAll(() => t.close());

  it("refuses with 503 and says why", async () => {
    const draft = {
      slug: "a-draft",
      title: "A draft",
      summary: "Not sent.",
      publishedAt: new Date().toISOString(),
      html: "<p>Body.</p>",
    };
    await expect(t.app.insightPreview(draft)).rejects.toMatchObject({
      statusCode: 503,
      message: expect.stringMatching(/no page build/),
    });
  });
});

describe("the feed's length", () => {
  it(`carries the newest ${FEED_ENTRIES} issues with their bodies, from the content's reads`, async () => {
    const summaries: InsightSummary[] = Array.from({ length: FEED_ENTRIES + 5 }, (_, index) => ({
      slug: `issue-${index}`,
      title: `Issue ${index}`,
      summary: summaryOf(`issue-${index}`),
      publishedAt: new Date(Date.UTC(2026, 0, 31 - index)).toISOString(),
    }));
    const asked: string[] = [];
    const content = {
      insightIssues: async () => summaries,
      insightIssue: async (slug: string) => {
        asked.push(slug);
        const summary = summaries.find((one) => one.slug === slug);
        return summary ? { ...summary, html: `<p>${slug}</p>` } : null;
      },
    } as Partial<ContentReader> as ContentReader;
    const issues = await feedIssues(content);
    const newest = summaries.slice(0, FEED_ENTRIES).map((summary) => summary.slug);
    expect(issues.map((issue) => issue.slug)).toEqual(newest);
    expect(issues.every((issue) => issue.html === `<p>${issue.slug}</p>`)).toBe(true);
    expect(asked.sort()).toEqual([...newest].sort());
  });
});
