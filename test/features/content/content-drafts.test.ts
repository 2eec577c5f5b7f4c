/**
 * Drafts of the content lists' records: a draft changes neither the public
 * API nor the served page; its preview link shows it on the real page to a
 * signed-in person only (never cached, never indexed), and the pass that
 * lets the browser in is checked at each use: its session ended, or its
 * person no longer an editor, it is refused with the reason; publishing it, now or
 * at a time, writes one new version through the audited save; a scheduled
 * draft is published once by two instances polling together, and after a
 * restart; a draft whose record moved on is kept, with the reason. Pages are
 * rendered by the real server build (TEST_SERVER_BUILD, else
 * build/server/index.js), on both engines.
 */
import escapeHtml from "escape-html";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PUBLISHER_ACTOR } from "../../../src/server/features/content/index.ts";
import { SECOND_FACTOR_SETTING } from "../../../src/server/platform/console/gate.ts";
import { AUTH_PATHS } from "../../../src/shared/admin/auth.ts";
import { CONTENT_PATHS, type Entry, type ListAnswer } from "../../../src/shared/admin/content.ts";
import {
  DRAFT_PATHS,
  DRAFT_TEXTS,
  type Draft,
  type DraftAnswer,
  PREVIEW_LINK_MINUTES,
  type PreviewLink,
} from "../../../src/shared/admin/content-drafts.ts";
import { personPath } from "../../../src/shared/admin/people.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, clientWith, createAccount, signIn } from "../../support/console.ts";
import { ENGINES, type EngineCase } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const LIST = "capabilities";
const PAGE = "/wedo";
const DRAFT_TEXT = "We turn forecasts into decisions your finance team trusts.";
// The texts the tests publish on the shared app, each its own: none is
// DRAFT_TEXT, which the preview tests check the public page never shows,
// whichever test runs first.
const PUBLISHED_TEXT = "Forecasts your finance team trusts, published now.";
const SCHEDULED_TEXT = "Forecasts your finance team trusts, published on the hour.";
const HELD_TEXT = "Forecasts your finance team trusts, written over a colleague's change.";
const SHOWN_AGAIN_TEXT = "Forecasts your finance team trusts, hidden and shown again.";
const HOUR = 60 * 60_000;

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

/** A clock the test moves by hand: scheduled times and preview links are measured with it. */
function handClock() {
  let at = Date.parse("2026-11-27T10:00:00.000Z");
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** Starts an app as the test's own instance, its publisher polling often. */
const start = (engine: EngineCase, now: () => number, shared?: TestApp["testDb"]) =>
  startApp(
    engine,
    { SCHEDULED_PUBLISH_POLL_MS: "20" },
    { renderer, now, ...(shared ? { shared } : {}) },
  );

async function firstCapability(client: ConsoleClient): Promise<Entry> {
  const list = (await client.request("GET", CONTENT_PATHS.list(LIST))).json() as ListAnswer;
  const entry = list.entries[0];
  if (!entry) throw new Error("the seed has no capability");
  return entry;
}

const saveDraft = (client: ConsoleClient, entry: Entry, description: string) =>
  client.request("PUT", DRAFT_PATHS.draft(LIST, entry.id), {
    fields: { ...entry.fields, description },
    baseVersion: entry.version,
  });

const publicItems = async (t: TestApp) =>
  (await t.app.inject({ method: "GET", url: `/api/v1/items/?category=${LIST}` })).json() as {
    description: string;
  }[];

const publicPage = (t: TestApp, url: string, cookie?: string) =>
  t.app.inject({ method: "GET", url, ...(cookie ? { headers: { cookie } } : {}) });

/** The preview link and the browser's preview pass cookie, as the console asks for them. */
async function previewOf(client: ConsoleClient, entry: Entry) {
  const response = await client.request("POST", DRAFT_PATHS.preview(LIST, entry.id));
  expect(response.statusCode).toBe(200);
  const pass = response.cookies.find((c) => c.name === "console_preview");
  if (!pass) throw new Error("no preview pass was set");
  expect(pass).toMatchObject({ path: "/", httpOnly: true, sameSite: "Strict" });
  return { link: response.json() as PreviewLink, pass: `console_preview=${pass.value}` };
}

async function auditOf(t: TestApp, action: string) {
  return t.database.db
    .selectFrom("audit_log")
    .select(["actor", "target", "detail"])
    .where("action", "=", action)
    .execute();
}

async function versionsOf(t: TestApp, id: number) {
  return t.database.db
    .selectFrom("content_versions")
    .select(["version", "author"])
    .where("entity", "=", "item")
    .where("entity_key", "=", String(id))
    .orderBy("version")
    .execute();
}

describe.each(ENGINES)("content drafts on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  const clock = handClock();

  beforeAll(async () => {
    t = await start(engine, clock.now);
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
  });
  afterAll(() => t.close());

  // Each test starts with no draft and no audit entries of an earlier test's drafts.
  beforeEach(async () => {
    await t.database.db.deleteFrom("content_drafts").execute();
    await t.database.db.deleteFrom("audit_log").execute();
  });

  it("keeps a draft aside: the public API and the served page do not change", async () => {
    const entry = await firstCapability(editor);
    const pageBefore = await publicPage(t, PAGE);
    const itemsBefore = await publicItems(t);

    const saved = await saveDraft(editor, entry, DRAFT_TEXT);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      baseVersion: entry.version,
      author: "editor@firm.example",
      publishAt: null,
      fields: { description: DRAFT_TEXT },
    });
    // A second save replaces the first: one draft per record.
    expect((await saveDraft(editor, entry, `${DRAFT_TEXT} Again.`)).statusCode).toBe(200);
    const rows = await t.database.db.selectFrom("content_drafts").select("id").execute();
    expect(rows).toHaveLength(1);

    expect(await publicItems(t)).toEqual(itemsBefore);
    const pageAfter = await publicPage(t, PAGE);
    expect(pageAfter.body).toBe(pageBefore.body);
    expect(pageAfter.body).not.toContain(asHtml(DRAFT_TEXT));
    expect(await firstCapability(editor)).toEqual(entry);

    const answer = (await editor.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).json();
    expect((answer as DraftAnswer).draft?.fields.description).toBe(`${DRAFT_TEXT} Again.`);
  });

  it("refuses a draft that breaks the list's rules beside the field, and keeps none", async () => {
    const entry = await firstCapability(editor);
    const response = await saveDraft(editor, entry, "");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Enter a description\./);
    expect(await t.database.db.selectFrom("content_drafts").select("id").execute()).toEqual([]);
  });

  it("shows the draft on the real page to a signed-in person with the link, and to no one else", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, DRAFT_TEXT);
    const { link, pass } = await previewOf(editor, entry);
    expect(link.url).toMatch(/^\/wedo\?preview=[^#]+#capabilities$/);
    expect(Date.parse(link.expiresAt) - clock.now()).toBe(PREVIEW_LINK_MINUTES * 60_000);

    const preview = await publicPage(t, link.url, pass);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain(asHtml(DRAFT_TEXT));
    expect(preview.headers["cache-control"]).toBe("private, no-store");
    expect(preview.headers["x-robots-tag"]).toBe("noindex");
    expect(preview.headers.etag).toBeUndefined();

    // The link without the pass, the pass without the link, a forged link: the public page.
    const token = new URL(link.url, "http://x").searchParams.get("preview") ?? "";
    const forged = link.url.replace(token, `${token.slice(0, -3)}AAA`);
    const otherDraft = link.url.replace(/preview=\d+/, "preview=999");
    for (const [url, cookie] of [
      [link.url, undefined],
      [PAGE, pass],
      [forged, pass],
      [otherDraft, pass],
    ] as const) {
      const page = await publicPage(t, url, cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(asHtml(DRAFT_TEXT));
      expect(page.headers["cache-control"]).toBe("no-cache");
    }
    // The page the public gets was not replaced by the preview in the cache.
    expect((await publicPage(t, PAGE)).body).not.toContain(asHtml(DRAFT_TEXT));
  });

  it("stops opening a preview once its link expires or its session ends", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, DRAFT_TEXT);
    const { link, pass } = await previewOf(editor, entry);
    expect((await publicPage(t, link.url, pass)).body).toContain(asHtml(DRAFT_TEXT));

    clock.advance(PREVIEW_LINK_MINUTES * 60_000 + 1);
    expect((await publicPage(t, link.url, pass)).body).not.toContain(asHtml(DRAFT_TEXT));

    // A fresh link, then the person signs out: the pass names a session that is gone.
    const colleague = await signIn(t.app, "editor@firm.example");
    const fresh = await previewOf(colleague, entry);
    expect((await publicPage(t, fresh.link.url, fresh.pass)).body).toContain(asHtml(DRAFT_TEXT));
    expect((await colleague.request("DELETE", AUTH_PATHS.session)).statusCode).toBe(204);
    const ended = await publicPage(t, fresh.link.url, fresh.pass);
    expect(ended.statusCode).toBe(403);
    expect(ended.json()).toEqual({ message: DRAFT_TEXTS.previewSessionEnded });
  });

  it("checks a preview pass at each use: refused once its person is a viewer, removed, or lacks a required second factor", async () => {
    await createAccount(t.database, "owner", "drafts-owner@firm.example");
    const owner = await signIn(t.app, "drafts-owner@firm.example");
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, DRAFT_TEXT);

    /** A new editor's preview pass, shown to open the draft before the change. */
    async function passOfNewEditor(email: string) {
      const person = await createAccount(t.database, "editor", email);
      const { link, pass } = await previewOf(await signIn(t.app, email), entry);
      expect((await publicPage(t, link.url, pass)).body).toContain(asHtml(DRAFT_TEXT));
      return { person, link, pass };
    }
    async function expectRefused(link: PreviewLink, pass: string, message: string) {
      const page = await publicPage(t, link.url, pass);
      expect(page.statusCode).toBe(403);
      expect(page.json()).toEqual({ message });
      expect(page.body).not.toContain(asHtml(DRAFT_TEXT));
    }

    const demoted = await passOfNewEditor("demoted@firm.example");
    const change = await owner.request("PATCH", personPath(demoted.person.id), { role: "viewer" });
    expect(change.statusCode, change.body).toBe(200);
    await expectRefused(demoted.link, demoted.pass, DRAFT_TEXTS.previewRoleTooWeak);

    const removed = await passOfNewEditor("removed@firm.example");
    expect((await owner.request("DELETE", personPath(removed.person.id))).statusCode).toBe(204);
    await expectRefused(removed.link, removed.pass, DRAFT_TEXTS.previewSessionEnded);

    const unsecured = await passOfNewEditor("no-second-factor@firm.example");
    await t.database.db
      .insertInto("site_meta")
      .values({
        key: SECOND_FACTOR_SETTING,
        value: "true",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    try {
      await expectRefused(unsecured.link, unsecured.pass, DRAFT_TEXTS.previewSecondFactor);
    } finally {
      await t.database.db
        .deleteFrom("site_meta")
        .where("key", "=", SECOND_FACTOR_SETTING)
        .execute();
    }
    // The same pass opens the draft again once nothing stands in its way.
    expect((await publicPage(t, unsecured.link.url, unsecured.pass)).body).toContain(
      asHtml(DRAFT_TEXT),
    );
  });

  it("publishes a draft now as the record's next version, audited, and the draft goes", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, PUBLISHED_TEXT);
    const published = await editor.request("POST", DRAFT_PATHS.publish(LIST, entry.id));
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({
      version: entry.version + 1,
      fields: { description: PUBLISHED_TEXT },
    });
    expect((await publicItems(t))[0]?.description).toBe(PUBLISHED_TEXT);
    expect((await publicPage(t, PAGE)).body).toContain(asHtml(PUBLISHED_TEXT));
    const answer = (await editor.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).json();
    expect((answer as DraftAnswer).draft).toBeNull();
    expect(await auditOf(t, "content-published")).toEqual([
      expect.objectContaining({ actor: "editor@firm.example", target: `${LIST}:${entry.id}` }),
    ]);
  });

  it("schedules a draft, shows and cancels the time, and refuses a time gone by", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, DRAFT_TEXT);
    const past = new Date(clock.now() - 1000).toISOString();
    const refused = await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), {
      publishAt: past,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ fields: { publishAt: DRAFT_TEXTS.pastTime } });

    const at = new Date(clock.now() + HOUR).toISOString();
    const scheduled = await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), {
      publishAt: at,
    });
    expect(scheduled.json()).toMatchObject({ publishAt: at, scheduledBy: "editor@firm.example" });
    // The list marks the record, with its time.
    const listed = (await editor.request("GET", CONTENT_PATHS.list(LIST))).json() as ListAnswer;
    expect(listed.drafts).toEqual([{ recordId: entry.id, publishAt: at }]);
    const cancelled = await editor.request("DELETE", DRAFT_PATHS.schedule(LIST, entry.id));
    expect(cancelled.json()).toMatchObject({ publishAt: null, scheduledBy: null });
    expect((await auditOf(t, "content-publish-unscheduled")).length).toBe(1);
  });

  it("publishes a scheduled draft when its time comes, once", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, SCHEDULED_TEXT);
    const at = new Date(clock.now() + HOUR).toISOString();
    await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), { publishAt: at });

    clock.advance(HOUR);
    await expect.poll(async () => (await publicItems(t))[0]?.description).toBe(SCHEDULED_TEXT);
    expect((await publicPage(t, PAGE)).body).toContain(asHtml(SCHEDULED_TEXT));
    expect((await versionsOf(t, entry.id)).at(-1)).toEqual({
      version: entry.version + 1,
      author: "editor@firm.example",
    });
    expect(await auditOf(t, "content-published")).toEqual([
      expect.objectContaining({ actor: PUBLISHER_ACTOR, target: `${LIST}:${entry.id}` }),
    ]);
  });

  it("keeps a draft whose record changed since, saying why, rather than overwrite the change", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, HELD_TEXT);
    // A colleague saves the record itself meanwhile.
    const theirs = await editor.request("PUT", CONTENT_PATHS.entry(LIST, entry.id), {
      fields: { ...entry.fields, name: `${entry.fields.name} (revised)` },
      hidden: false,
      version: entry.version,
    });
    expect(theirs.statusCode).toBe(200);

    const now = await editor.request("POST", DRAFT_PATHS.publish(LIST, entry.id));
    const conflict = DRAFT_TEXTS.conflict("capability", entry.version, entry.version + 1);
    expect(now.statusCode).toBe(409);
    expect(now.json().message).toBe(conflict);

    const at = new Date(clock.now() + HOUR).toISOString();
    await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), { publishAt: at });
    clock.advance(HOUR);
    const draftOf = async () =>
      ((await editor.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).json() as DraftAnswer)
        .draft;
    await expect
      .poll(async () => (await draftOf())?.conflict)
      .toBe(DRAFT_TEXTS.notPublished(conflict));
    expect(await draftOf()).toMatchObject({ publishAt: null, fields: { description: HELD_TEXT } });
    expect((await versionsOf(t, entry.id)).at(-1)?.version).toBe(entry.version + 1);
    expect((await publicItems(t))[0]?.description).toBe(entry.fields.description);
    expect((await auditOf(t, "content-publish-held")).length).toBe(1);

    // Saving the draft again from the record as it is now lets it through.
    const current = await firstCapability(editor);
    const rebased = await editor.request("PUT", DRAFT_PATHS.draft(LIST, entry.id), {
      fields: { ...current.fields, description: HELD_TEXT },
      baseVersion: current.version,
    });
    expect((rebased.json() as Draft).conflict).toBeNull();
    expect((await editor.request("POST", DRAFT_PATHS.publish(LIST, entry.id))).statusCode).toBe(
      200,
    );
  });

  it("keeps the draft when an earlier version is restored", async () => {
    const entry = await firstCapability(editor);
    const saved = await editor.request("PUT", CONTENT_PATHS.entry(LIST, entry.id), {
      fields: { ...entry.fields, name: `${entry.fields.name} 2` },
      hidden: false,
      version: entry.version,
    });
    await saveDraft(editor, saved.json() as Entry, DRAFT_TEXT);
    const restored = await editor.request(
      "POST",
      CONTENT_PATHS.restore(LIST, entry.id, entry.version),
      { version: entry.version + 1 },
    );
    expect(restored.statusCode).toBe(200);
    const answer = (await editor.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).json();
    expect((answer as DraftAnswer).draft?.fields.description).toBe(DRAFT_TEXT);
  });

  it("keeps a draft current when its record is hidden and shown again", async () => {
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, SHOWN_AGAIN_TEXT);
    for (const [hidden, version] of [
      [true, entry.version],
      [false, entry.version + 1],
    ] as const) {
      const changed = await editor.request("PUT", CONTENT_PATHS.visibility(LIST, entry.id), {
        hidden,
        version,
      });
      expect(changed.statusCode).toBe(200);
    }
    const answer = (await editor.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).json();
    expect((answer as DraftAnswer).draft?.baseVersion).toBe(entry.version + 2);
    expect((await editor.request("POST", DRAFT_PATHS.publish(LIST, entry.id))).statusCode).toBe(
      200,
    );
  });

  it("previews a case study at the address its draft gives it", async () => {
    const list = (await editor.request("GET", CONTENT_PATHS.list("case-studies"))).json();
    const study = (list as ListAnswer).entries[0] as Entry;
    const slug = `${study.fields.slug}-revised`;
    const saved = await editor.request("PUT", DRAFT_PATHS.draft("case-studies", study.id), {
      fields: { ...study.fields, slug, title: `${study.fields.title} (revised)` },
      baseVersion: study.version,
    });
    expect(saved.statusCode).toBe(200);
    const response = await editor.request("POST", DRAFT_PATHS.preview("case-studies", study.id));
    const { url } = response.json() as PreviewLink;
    expect(url).toMatch(new RegExp(`^/weserve/case-studies/${slug}\\?preview=`));
    const pass = response.cookies.find((c) => c.name === "console_preview")?.value;
    const preview = await publicPage(t, url, `console_preview=${pass}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain(asHtml(`${study.fields.title} (revised)`));
    // The public does not have the new address.
    expect((await publicPage(t, url.split("?")[0] ?? "")).statusCode).toBe(404);
  });

  it("answers a viewer 403 on the drafts", async () => {
    const viewer = await signIn(t.app, "viewer@firm.example");
    const entry = await firstCapability(editor);
    expect((await viewer.request("GET", DRAFT_PATHS.draft(LIST, entry.id))).statusCode).toBe(403);
    expect((await saveDraft(viewer, entry, DRAFT_TEXT)).statusCode).toBe(403);
    const stranger = clientWith(t.app, editor.cookie.split(";")[0] ?? "", editor.token);
    expect((await stranger.request("POST", DRAFT_PATHS.preview(LIST, entry.id))).statusCode).toBe(
      401,
    );
  });
});

describe.each(ENGINES)("scheduled publishing across a restart on $engine", (engine) => {
  it("publishes a draft scheduled before the restart once the new instance finds it due", async () => {
    const clock = handClock();
    const testDb = await engine.create();
    try {
      const before = await start(engine, clock.now, testDb);
      await createAccount(before.database, "editor");
      const editor = await signIn(before.app, "editor@firm.example");
      const entry = await firstCapability(editor);
      await saveDraft(editor, entry, DRAFT_TEXT);
      const at = new Date(clock.now() + HOUR).toISOString();
      await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), { publishAt: at });
      await before.close();

      clock.advance(HOUR);
      const after = await start(engine, clock.now, testDb);
      try {
        await expect.poll(async () => (await publicItems(after))[0]?.description).toBe(DRAFT_TEXT);
        expect((await versionsOf(after, entry.id)).at(-1)?.version).toBe(entry.version + 1);
      } finally {
        await after.close();
      }
    } finally {
      await testDb.drop();
    }
  });
});

const postgres = ENGINES.find((engine) => engine.engine === "postgres");

describe.skipIf(!postgres)("scheduled publishing with two instances on PostgreSQL", () => {
  const clock = handClock();
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const engine = postgres as EngineCase;
    a = await start(engine, clock.now);
    b = await start(engine, clock.now, a.testDb);
    await createAccount(a.database, "editor");
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("publishes a due draft once: one version, one audit entry", async () => {
    const editor = await signIn(a.app, "editor@firm.example");
    const entry = await firstCapability(editor);
    await saveDraft(editor, entry, DRAFT_TEXT);
    const at = new Date(clock.now() + HOUR).toISOString();
    await editor.request("PUT", DRAFT_PATHS.schedule(LIST, entry.id), { publishAt: at });

    clock.advance(HOUR);
    // Both poll every 20 ms; wake both at once as well, so they reach for it together.
    a.app.scheduledPublishing.wake();
    b.app.scheduledPublishing.wake();
    for (const instance of [a, b]) {
      await expect.poll(async () => (await publicItems(instance))[0]?.description).toBe(DRAFT_TEXT);
    }
    expect((await versionsOf(a, entry.id)).map((v) => v.version)).toEqual([
      entry.version,
      entry.version + 1,
    ]);
    expect(await auditOf(a, "content-published")).toHaveLength(1);
  });
});
