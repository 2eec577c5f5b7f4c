import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ATOM_TYPE } from "../../../src/server/features/pages/index.ts";
import {
  caseStudyPath,
  INSIGHT_FEED_PATH,
  INSIGHT_PATH,
  PRIVACY_PATH,
  SCREEN_PATHS,
} from "../../../src/shared/routes.ts";
import { SITE } from "../../../src/shared/site.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const ORIGIN = "https://www.firm.example";

describe.each(ENGINES)("robots.txt and sitemap.xml on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, { PUBLIC_ORIGIN: ORIGIN });
  });
  afterAll(() => t.close());

  it("robots.txt points to the sitemap and keeps crawlers off the API and personal links", async () => {
    const response = await t.app.inject({ url: "/robots.txt" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    expect(response.body.split("\n")).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Disallow: /api/",
        "Disallow: /unsubscribe",
        `Sitemap: ${ORIGIN}/sitemap.xml`,
      ]),
    );
  });

  it("security.txt names the firm's contact address and an expiry under a year away (RFC 9116)", async () => {
    const response = await t.app.inject({ url: "/.well-known/security.txt" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const fields = Object.fromEntries(
      response.body
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    );
    const facts = await t.app.content.facts();
    expect(fields.Contact).toBe(`mailto:${facts.contactEmail}`);
    expect(fields.Canonical).toBe(`${ORIGIN}/.well-known/security.txt`);
    const daysLeft = (Date.parse(String(fields.Expires)) - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(30);
    expect(daysLeft).toBeLessThan(365);
  });

  it("the sitemap lists every screen, case study and the Insight archive at its public address, and each is served", async () => {
    const response = await t.app.inject({ url: "/sitemap.xml" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    expect(response.body).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const locations = [...response.body.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(String(match[1])),
    );
    const studies = await t.app.content.caseStudies();
    // No issue is published in a new database: the archive's page alone (its issues: src/server/features/pages/insight-archive.test.ts).
    const paths = [
      ...SCREEN_PATHS,
      ...studies.map((study) => caseStudyPath(study.slug)),
      INSIGHT_PATH,
      PRIVACY_PATH,
    ];
    expect(studies).toHaveLength(3);
    expect(locations.map((url) => url.origin)).toEqual(paths.map(() => ORIGIN));
    expect(locations.map((url) => url.pathname)).toEqual(paths);
    for (const url of locations) {
      expect((await t.app.inject({ url: url.pathname })).statusCode).toBe(200);
    }
  });

  it("the Insight feed is a valid Atom feed before the first issue, with its own address", async () => {
    const response = await t.app.inject({ url: INSIGHT_FEED_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe(ATOM_TYPE);
    const feed = response.body;
    expect(feed).toContain(`<id>${ORIGIN}/insight</id>`);
    expect(feed).toContain(
      `<link rel="self" type="application/atom+xml" href="${ORIGIN}/insight/feed.xml"/>`,
    );
    expect(feed).toContain(`<link rel="alternate" type="text/html" href="${ORIGIN}/insight"/>`);
    expect(feed).toContain(`<author><name>${SITE.firmName}</name><uri>${ORIGIN}/</uri></author>`);
    expect(feed).not.toContain("<entry>");
  });

  it("dates the empty feed by the site's set-up, the same from one fetch to the next", async () => {
    const updatedIn = (feed: string) => /<updated>([^<]+)<\/updated>/.exec(feed)?.[1];
    const first = await t.app.inject({ url: INSIGHT_FEED_PATH });
    const fetchedAt = Date.now();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(fetchedAt));
    const second = await t.app.inject({ url: INSIGHT_FEED_PATH });
    expect(updatedIn(second.body)).toBe(updatedIn(first.body));
    const setUp = await t.database.db
      .selectFrom("site_meta")
      .select("created_at")
      .where("key", "=", "seeded_at")
      .executeTakeFirstOrThrow();
    expect(updatedIn(first.body)).toBe(new Date(setUp.created_at).toISOString());
  });

  it("dates each sitemap entry by the last change of what its page shows", async () => {
    const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
    const lastmods = async () =>
      new Map(
        [
          ...(await t.app.inject({ url: "/sitemap.xml" })).body.matchAll(
            /<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g,
          ),
        ].map((match) => [new URL(String(match[1])).pathname, String(match[2])]),
      );
    const before = await lastmods();
    const studies = await t.app.content.caseStudies();
    expect([...before.keys()]).toEqual([
      ...SCREEN_PATHS,
      ...studies.map((study) => caseStudyPath(study.slug)),
      INSIGHT_PATH,
      PRIVACY_PATH,
    ]);
    for (const [path, lastmod] of before) expect(lastmod, path).toMatch(W3C_DATETIME);

    const [study] = studies;
    const editedAt = new Date(Date.parse(String(before.get("/weserve"))) + 60_000).toISOString();
    await t.app.content.edit((trx) =>
      trx
        .updateTable("case_studies")
        .set({ summary: "A summary written again.", updated_at: editedAt })
        .where("slug", "=", String(study?.slug))
        .execute(),
    );
    const after = await lastmods();
    expect(after.get(caseStudyPath(String(study?.slug)))).toBe(editedAt);
    expect(after.get("/weserve")).toBe(editedAt);
    // The pages that do not show case studies keep their dates.
    for (const path of ["/", "/wedo", "/weare", "/contact-us", "/privacy"]) {
      expect(after.get(path), path).toBe(before.get(path));
    }
  });
});
