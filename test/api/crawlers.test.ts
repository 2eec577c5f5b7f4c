import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseStudyPath, SCREEN_PATHS } from "../../src/shared/routes.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

const ORIGIN = "https://www.firm.example";
const [sqlite] = ENGINES;

describe("robots.txt and sitemap.xml", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, { PUBLIC_ORIGIN: ORIGIN });
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

  it("the sitemap lists every screen and case study at its public address, and each is served", async () => {
    const response = await t.app.inject({ url: "/sitemap.xml" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    expect(response.body).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const locations = [...response.body.matchAll(/<url><loc>([^<]+)<\/loc><\/url>/g)].map(
      (match) => new URL(String(match[1])),
    );
    const studies = await t.app.content.caseStudies();
    const paths = [...SCREEN_PATHS, ...studies.map((study) => caseStudyPath(study.slug))];
    expect(studies).toHaveLength(3);
    expect(locations.map((url) => url.origin)).toEqual(paths.map(() => ORIGIN));
    expect(locations.map((url) => url.pathname)).toEqual(paths);
    for (const url of locations) {
      expect((await t.app.inject({ url: url.pathname })).statusCode).toBe(200);
    }
  });
});
