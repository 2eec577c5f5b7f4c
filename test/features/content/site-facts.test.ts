/**
 * The site facts in the console: a save shows in the next
 * page the server renders (with a new ETag), a save on a stale version is
 * refused, every version is kept and restorable, every change is audited, and
 * only editors may read or write them. Pages are rendered by the real server
 * build (TEST_SERVER_BUILD, else build/server/index.js), on both engines.
 */
import { readFileSync } from "node:fs";
import escapeHtml from "escape-html";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nowIso } from "../../../src/server/platform/db/schema.ts";
import { CONTENT_TEXTS } from "../../../src/shared/admin/content.ts";
import {
  SITE_FACTS_ENTITY,
  SITE_FACTS_PATHS,
  SITE_FACTS_TEXTS,
  type SiteFactsAnswer,
} from "../../../src/shared/admin/site-facts.ts";
import { SITE_FACT_KEYS, type SiteFacts } from "../../../src/shared/site-facts.ts";
import { lastAuditId, startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const seedFiles = {
  ...JSON.parse(readFileSync("content/site.json", "utf8")),
  privacyNotice: readFileSync("content/privacy.md", "utf8").trim(),
};
/** The facts as the seed gives them. */
const SEED = Object.fromEntries(SITE_FACT_KEYS.map((key) => [key, seedFiles[key]])) as SiteFacts;

const EDITED: SiteFacts = {
  ...SEED,
  mission: "We turn what computers can do into what your business needs done.",
  contactEmail: "partners@firm.example",
  networkUrl: "https://www.linkedin.com/company/firm-example",
};

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

describe.each(ENGINES)("console site facts on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;

  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
  });
  afterAll(() => t.close());

  /** The last audit entry before the test, so it sees only the entries it wrote. */
  let auditBefore: number;
  // Each test starts from the facts as the seed left them: at version 1, with
  // no version stored yet. Written through the app, so its pages drop what
  // they rendered from the facts an earlier test saved.
  beforeEach(async () => {
    await t.app.content.edit(async (trx) => {
      await trx.deleteFrom("content_versions").where("entity", "=", SITE_FACTS_ENTITY).execute();
      for (const key of SITE_FACT_KEYS) {
        await trx
          .updateTable("site_facts")
          .set({ value: SEED[key], version: 1, updated_at: nowIso() })
          .where("key", "=", key)
          .execute();
      }
    });
    auditBefore = await lastAuditId(t.database);
  });

  const current = async () =>
    (await editor.request("GET", SITE_FACTS_PATHS.facts)).json() as SiteFactsAnswer;
  const save = (fields: SiteFacts, version: number) =>
    editor.request("PUT", SITE_FACTS_PATHS.facts, { fields, version });
  const page = async (url: string) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode, url).toBe(200);
    return { html: response.body, etag: response.headers.etag };
  };
  const versionRows = () =>
    t.database.db
      .selectFrom("content_versions")
      .select(["version", "author", "user_id", "data"])
      .where("entity", "=", "site-facts")
      .orderBy("version")
      .execute();

  it("gives an editor the seeded facts, at version 1", async () => {
    expect(await current()).toMatchObject({ version: 1, fields: SEED });
  });

  it("shows a save in the next page the server renders, with a new ETag", async () => {
    const home = await page("/");
    const contact = await page("/contact-us");
    expect(home.html).toContain(asHtml(SEED.mission));

    const saved = await save(EDITED, 1);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, fields: EDITED });

    const homeAfter = await page("/");
    expect(homeAfter.etag).not.toBe(home.etag);
    expect(homeAfter.html).not.toContain(asHtml(SEED.mission));
    // The banner, the footer, Home's description and the organization's JSON-LD.
    expect(homeAfter.html.split(asHtml(EDITED.mission)).length - 1).toBeGreaterThanOrEqual(3);
    expect(homeAfter.html).toContain(`"description":"${EDITED.mission}"`);
    expect(homeAfter.html).toContain(`href="${EDITED.networkUrl}"`);
    expect(homeAfter.html).toContain(`"sameAs":["${EDITED.networkUrl}"]`);

    const contactAfter = await page("/contact-us");
    expect(contactAfter.etag).not.toBe(contact.etag);
    expect(contactAfter.html).toContain(`href="mailto:${EDITED.contactEmail}"`);
    expect(contactAfter.html).not.toContain(SEED.contactEmail);

    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor", "target", "detail"])
      .where("target", "=", "site-facts")
      .where("id", ">", auditBefore)
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ action: "content-saved", actor: "editor@firm.example" }),
    ]);
    expect(JSON.parse(String(audit[0]?.detail))).toEqual({
      changed: ["mission", "contactEmail", "networkUrl"],
      version: 2,
    });
  });

  it("refuses a save on a stale version with 409, and writes nothing", async () => {
    expect((await save(EDITED, 1)).statusCode).toBe(200);
    const before = await versionRows();
    const stale = await save({ ...EDITED, mission: "Typed on the old version." }, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(SITE_FACTS_TEXTS.stale);
    expect(await current()).toMatchObject({ version: 2, fields: EDITED });
    expect(await versionRows()).toEqual(before);
    expect((await page("/")).html).not.toContain("Typed on the old version.");
  });

  it("lets exactly one of two saves from the same version through when they race", async () => {
    const { version } = await current();
    const answers = await Promise.all(
      ["One", "Two", "Three"].map((word) =>
        save({ ...EDITED, contactInvitation: `${word}: write to us.` }, version),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json();
    expect((await current()).fields.contactInvitation).toBe(winner.fields.contactInvitation);
    expect((await page("/contact-us")).html).toContain(winner.fields.contactInvitation);
  });

  it("refuses facts that break the rules, and writes nothing", async () => {
    const { version } = await current();
    for (const [fields, reason] of [
      [{ ...EDITED, contactEmail: "not an address" }, /Enter an e-mail address/],
      [{ ...EDITED, networkUrl: "http://www.linkedin.com/company/x" }, /starts with https:\/\//],
      [{ ...EDITED, mission: "  \n " }, /Enter the mission\./],
      [{ ...EDITED, mission: "x".repeat(301) }, /Keep it to 300 characters\./],
      [{ ...EDITED, privacyNotice: " \n\n " }, /Enter the privacy notice\./],
      [{ ...EDITED, privacyNotice: "x".repeat(20_001) }, /Keep it to 20000 characters\./],
    ] as const) {
      const response = await save(fields, version);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(reason);
    }
    const extra = await editor.request("PUT", SITE_FACTS_PATHS.facts, {
      fields: { ...EDITED, firmName: "Another Firm" },
      version,
    });
    expect(extra.statusCode).toBe(400);
    expect((await current()).version).toBe(version);
  });

  it("keeps one line of each text, as the page shows it", async () => {
    const { version } = await current();
    const saved = await save(
      { ...EDITED, mission: `  ${EDITED.mission}\r\n  Together. ` },
      version,
    );
    expect(saved.json().fields.mission).toBe(`${EDITED.mission} Together.`);
  });

  it("shows the privacy notice on its own page only, as Markdown with no raw HTML, and a save there next", async () => {
    const notice = await page("/privacy");
    expect(notice.html).toContain("<h1");
    expect(notice.html).toContain("<h2>When you send us an inquiry</h2>");
    // Where to write comes from the contact address, whatever the notice says.
    const { fields, version } = await current();
    expect(notice.html).toContain(`href="mailto:${fields.contactEmail}"`);
    // Too long to travel with every page: Home holds none of it.
    const home = await page("/");
    expect(home.html).not.toContain("When you send us an inquiry");
    expect(home.html).toContain('href="/privacy"');

    const edited = "## What we keep\n\nVery little.\n\n<script>alert(1)</script>\n\n- one\n- two";
    const saved = await save({ ...(fields as SiteFacts), privacyNotice: edited }, version);
    expect(saved.statusCode).toBe(200);
    // Its line breaks are its structure: they are kept.
    expect(saved.json().fields.privacyNotice).toBe(edited);
    const after = await page("/privacy");
    expect(after.etag).not.toBe(notice.etag);
    expect(after.html).toContain("<h2>What we keep</h2>");
    expect(after.html).toContain("<li>one</li>");
    expect(after.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(after.html).not.toContain("<script>alert(1)");
    expect(after.html).not.toContain("When you send us an inquiry");
  });

  it("keeps every version with who and when, and restores one as a new version", async () => {
    expect((await save(EDITED, 1)).statusCode).toBe(200);
    const { version } = await current();
    const { versions } = (await editor.request("GET", SITE_FACTS_PATHS.versions)).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual(
      Array.from({ length: version }, (_, index) => version - index),
    );
    expect(versions.at(-1)).toMatchObject({ version: 1, author: "seed", fields: SEED });
    expect(versions[0]).toMatchObject({ version, author: "editor@firm.example" });
    const rows = await versionRows();
    expect(rows[0]).toMatchObject({ version: 1, author: "seed", user_id: null });
    expect(rows[1]?.user_id).toEqual(expect.any(Number));

    // A restore based on a stale version is refused too.
    const staleRestore = await editor.request("POST", SITE_FACTS_PATHS.restore(1), {
      version: version - 1,
    });
    expect(staleRestore.statusCode).toBe(409);
    expect(staleRestore.json().message).toBe(SITE_FACTS_TEXTS.staleAction);
    const missing = await editor.request("POST", SITE_FACTS_PATHS.restore(99), { version });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(CONTENT_TEXTS.noSuchVersion);

    const before = await page("/");
    const restored = await editor.request("POST", SITE_FACTS_PATHS.restore(1), { version });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ version: version + 1, fields: SEED });
    const after = await page("/");
    expect(after.etag).not.toBe(before.etag);
    expect(after.html).toContain(asHtml(SEED.mission));
    expect(after.html).not.toContain(asHtml(EDITED.mission));
    expect((await versionRows()).map((row) => row.version)).toEqual(
      Array.from({ length: version + 1 }, (_, index) => index + 1),
    );
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("target", "=", "site-facts")
      .where("action", "=", "content-restored")
      .where("id", ">", auditBefore)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("answers a viewer 403 and a stranger 401 on every site-facts route", async () => {
    const stranger = await anonymous(t.app);
    const routes = t.app.consoleRoutes.filter((route) =>
      route.url.startsWith(SITE_FACTS_PATHS.facts),
    );
    expect(routes.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      `GET ${SITE_FACTS_PATHS.facts}`,
      `GET ${SITE_FACTS_PATHS.versions}`,
      `POST ${SITE_FACTS_PATHS.restore(":version")}`,
      `PUT ${SITE_FACTS_PATHS.facts}`,
    ]);
    const { version } = await current();
    for (const route of routes) {
      const url = route.url.replace(":version", "1");
      const body = route.method === "PUT" ? { fields: EDITED, version } : { version };
      expect((await viewer.request(route.method, url, body)).statusCode, url).toBe(403);
      expect((await stranger.request(route.method, url, body)).statusCode, url).toBe(401);
    }
    expect((await current()).version).toBe(version);
  });
});
