/**
 * A sent issue's archive page after the mail went out, on both engines: an
 * editor corrects its title, summary and body, and the page, the archive's
 * list and the feed show the correction at once while every sent copy stays
 * as it was; each correction is a version, and an earlier one can be
 * restored; the issue can be withdrawn from the archive (its address then
 * answers 410 Gone) and put back. Viewers may only read. Every write is
 * audited. The public pages are rendered by the server build (npm test
 * builds it first).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SITEMAP_PATH } from "../../../src/server/features/pages/index.ts";
import type { AuditAction } from "../../../src/shared/admin/audit-log.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import {
  ARCHIVE_PATHS,
  type ArchiveCorrection,
  type ArchiveVersion,
} from "../../../src/shared/admin/newsletter-archive.ts";
import { INSIGHT_FEED_PATH, INSIGHT_PATH, insightIssuePath } from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, newsletterDraft } from "../../support/newsletter.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";

const SLUG = "cloud-costs-corrected";
const SENT = newsletterDraft(SLUG);
const CORRECTED = {
  title: "Cloud costs in 2026, corrected",
  summary: "The figures for the second quarter, now right.",
  body: "## Corrected figures\n\nThe second quarter saved **31%**, not 13%.",
};

describe.each(ENGINES)("correcting and withdrawing a sent issue on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  let issue: IssueDetail;
  /** The mail as the send left it: the issue's frozen parts and every copy's outbox row. */
  let sentMail: Awaited<ReturnType<typeof mailAsSent>>;

  const get = (url: string) => t.app.inject({ url });
  const detail = async (): Promise<IssueDetail> =>
    (await editor.request("GET", NEWSLETTER_PATHS.one(issue.id))).json();

  async function mailAsSent() {
    const frozen = await t.database.db
      .selectFrom("issues")
      .select(["email_html", "email_text"])
      .where("id", "=", issue.id)
      .executeTakeFirstOrThrow();
    const copies = await t.database.db
      .selectFrom("outbox")
      .selectAll()
      .where("issue_id", "=", issue.id)
      .orderBy("id")
      .execute();
    return { frozen, copies };
  }

  async function audited(action: AuditAction): Promise<unknown[]> {
    const rows = await t.database.db
      .selectFrom("audit_log")
      .select("detail")
      .where("target", "=", `issue:${issue.id}`)
      .where("action", "=", action)
      .orderBy("id")
      .execute();
    return rows.map((row) => (row.detail === null ? null : JSON.parse(String(row.detail))));
  }

  /** Waits for the send to finish, polling the issue (vi.waitFor works in set-up too). */
  function sentIssue(): Promise<IssueDetail> {
    return vi.waitFor(
      async () => {
        const current = await detail();
        if (current.status !== "sent")
          throw new Error(`the send did not finish: ${current.status}`);
        return current;
      },
      { timeout: 15_000, interval: 50 },
    );
  }

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  // Each test has an app and a database of its own, with the issue just sent:
  // a test that needs the issue corrected or withdrawn first does that itself.
  beforeEach(async () => {
    t = await startApp(
      engine,
      mailTo(smtp.url, { PUBLIC_ORIGIN: ORIGIN, NEWSLETTER_RATE_PER_SECOND: "50" }),
      { renderer },
    );
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
    await addSubscribers(t.database, SLUG, 3);
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, SENT);
    expect(created.statusCode, created.body).toBe(201);
    issue = created.json();
    const sent = await editor.request("POST", NEWSLETTER_PATHS.send(issue.id), {});
    expect(sent.statusCode, sent.body).toBe(200);
    issue = await sentIssue();
    sentMail = await mailAsSent();
  });
  afterEach(async () => {
    await t?.close();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const correct = (client: ConsoleClient, correction: ArchiveCorrection) =>
    client.request("PUT", ARCHIVE_PATHS.page(issue.id), correction);

  /** Corrects the page as CORRECTED says, from the issue's current version. */
  async function correctPage(): Promise<IssueDetail> {
    const response = await correct(editor, { ...CORRECTED, version: issue.version });
    expect(response.statusCode, response.body).toBe(200);
    issue = response.json();
    return issue;
  }

  /** Withdraws the issue from the archive. */
  async function withdraw(): Promise<void> {
    const response = await editor.request("POST", ARCHIVE_PATHS.withdraw(issue.id));
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as IssueDetail).withdrawnAt).not.toBeNull();
  }

  const versions = async (): Promise<ArchiveVersion[]> => {
    const response = await viewer.request("GET", ARCHIVE_PATHS.versions(issue.id));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().versions;
  };

  it("refuses a viewer every write, and leaves the page as sent", async () => {
    const writes = [
      await correct(viewer, { ...CORRECTED, version: issue.version }),
      await viewer.request("POST", ARCHIVE_PATHS.restore(issue.id, issue.version), {
        version: issue.version,
      }),
      await viewer.request("POST", ARCHIVE_PATHS.withdraw(issue.id)),
      await viewer.request("POST", ARCHIVE_PATHS.putBack(issue.id)),
    ];
    expect(writes.map((response) => response.statusCode)).toEqual([403, 403, 403, 403]);
    const page = await get(insightIssuePath(SLUG));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(SENT.title);
  });

  it("refuses to correct an issue that was not sent", async () => {
    const draft = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("a-draft"));
    const { id, version } = draft.json() as IssueDetail;
    const response = await editor.request("PUT", ARCHIVE_PATHS.page(id), {
      ...CORRECTED,
      version,
    });
    expect(response.statusCode).toBe(409);
    expect((await editor.request("POST", ARCHIVE_PATHS.withdraw(id))).statusCode).toBe(409);
  });

  it("shows a correction on the page, in the archive and in the feed, and leaves the mail as sent", async () => {
    expect(await versions()).toEqual([
      expect.objectContaining({ version: issue.version, title: SENT.title, body: SENT.body }),
    ]);
    // Read once, so the page and the feed are in the cache the correction must drop.
    expect((await get(insightIssuePath(SLUG))).body).toContain(SENT.title);
    expect((await get(INSIGHT_FEED_PATH)).body).toContain(SENT.title);

    expect(sentMail.copies).toHaveLength(3);
    const sentVersion = issue.version;
    const corrected = await correctPage();
    expect(corrected).toMatchObject({ ...CORRECTED, version: sentVersion + 1, status: "sent" });
    expect(corrected.correctedAt).not.toBeNull();

    const page = await get(insightIssuePath(SLUG));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(CORRECTED.title);
    expect(page.body).toContain("<h2>Corrected figures</h2>");
    expect(page.body).toContain("<strong>31%</strong>");
    expect(page.body).not.toContain(SENT.title);
    const archive = await get(INSIGHT_PATH);
    expect(archive.body).toContain(CORRECTED.title);
    expect(archive.body).toContain(CORRECTED.summary);
    const feed = (await get(INSIGHT_FEED_PATH)).body;
    expect(feed).toContain(`<title type="text">${CORRECTED.title}</title>`);
    expect(feed).not.toContain(SENT.title);
    expect(feed).toContain(`<updated>${corrected.correctedAt}</updated>`);

    expect(await mailAsSent()).toEqual(sentMail);
    expect(await audited("issue-page-corrected")).toEqual([
      expect.objectContaining({
        version: sentVersion + 1,
        changed: ["title", "summary", "body"],
      }),
    ]);
  });

  it("refuses a correction with a picture that says nothing, beside the body", async () => {
    const response = await correct(editor, {
      ...CORRECTED,
      body: "A chart: ![](/images/insight/0123456789abcdef01234567.webp)",
      version: issue.version,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      body: expect.stringMatching(/^Picture 1 of 1 has no description\./),
    });
  });

  it("refuses a correction made from an older version", async () => {
    await correctPage();
    const response = await correct(editor, { ...CORRECTED, title: "Late", version: 1 });
    expect(response.statusCode).toBe(409);
    expect((await get(insightIssuePath(SLUG))).body).not.toContain("Late");
  });

  it("keeps the page as sent, and restores it as a new version", async () => {
    await correctPage();
    const history = await versions();
    expect(history.map((version) => version.title)).toEqual([CORRECTED.title, SENT.title]);
    const asSent = history[1];
    expect(asSent).toMatchObject({ author: "editor@firm.example", summary: SENT.summary });

    const response = await editor.request(
      "POST",
      ARCHIVE_PATHS.restore(issue.id, asSent?.version ?? 0),
      { version: issue.version },
    );
    expect(response.statusCode, response.body).toBe(200);
    const restored: IssueDetail = response.json();
    expect(restored).toMatchObject({ title: SENT.title, version: issue.version + 1 });

    const page = (await get(insightIssuePath(SLUG))).body;
    expect(page).toContain(SENT.title);
    expect(page).not.toContain(CORRECTED.title);
    expect((await get(INSIGHT_FEED_PATH)).body).toContain(
      `<title type="text">${SENT.title}</title>`,
    );
    expect((await versions()).map((version) => version.title)).toEqual([
      SENT.title,
      CORRECTED.title,
      SENT.title,
    ]);
    expect(await mailAsSent()).toEqual(sentMail);
    expect(await audited("issue-page-restored")).toEqual([
      expect.objectContaining({ from: asSent?.version, version: issue.version + 1 }),
    ]);
  });

  it("withdraws the issue from the archive, the feed and the sitemap; its page answers 410", async () => {
    const sitemapEntry = `<loc>${ORIGIN}${insightIssuePath(SLUG)}</loc>`;
    expect((await get(SITEMAP_PATH)).body).toContain(sitemapEntry);
    expect((await get(INSIGHT_PATH)).body).toContain(SENT.title);

    await withdraw();

    expect((await get(INSIGHT_PATH)).body).not.toContain(SENT.title);
    expect((await get(INSIGHT_FEED_PATH)).body).not.toContain(insightIssuePath(SLUG));
    expect((await get(SITEMAP_PATH)).body).not.toContain(sitemapEntry);
    expect((await get(insightIssuePath(SLUG))).statusCode).toBe(410);
    // An address that never was an issue's is still merely unknown.
    expect((await get(insightIssuePath("never-an-issue"))).statusCode).toBe(404);
    // A second click changes nothing and says why.
    expect((await editor.request("POST", ARCHIVE_PATHS.withdraw(issue.id))).statusCode).toBe(409);

    expect(await mailAsSent()).toEqual(sentMail);
    expect(await audited("issue-withdrawn")).toHaveLength(1);
  });

  it("puts the issue back where it was", async () => {
    await withdraw();
    const response = await editor.request("POST", ARCHIVE_PATHS.putBack(issue.id));
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as IssueDetail).withdrawnAt).toBeNull();

    const page = await get(insightIssuePath(SLUG));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(SENT.title);
    expect((await get(INSIGHT_PATH)).body).toContain(SENT.title);
    expect((await get(INSIGHT_FEED_PATH)).body).toContain(insightIssuePath(SLUG));
    expect((await get(SITEMAP_PATH)).body).toContain(
      `<loc>${ORIGIN}${insightIssuePath(SLUG)}</loc>`,
    );
    expect(await audited("issue-put-back")).toHaveLength(1);
  });
});
