/**
 * The console's newsletter routes that are not the send itself: the three
 * previews (framable only by the console, sandboxed), the test copy to the
 * editor's own address, and the audit of every write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPageRenderer } from "../../src/server/features/pages/renderer.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../src/shared/admin/newsletter.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../support/console.ts";
import { ENGINES } from "../support/engines.ts";
import { mailTo } from "../support/mail-env.ts";
import { newsletterDraft } from "../support/newsletter.ts";
import { header, startSmtp, type TestSmtp } from "../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
// The web preview is the real page: rendered by the server build (npm test builds first).
const SERVER_BUILD = process.env.TEST_SERVER_BUILD ?? "build/server/index.js";
const renderer = await loadPageRenderer(SERVER_BUILD);
if (!renderer) throw new Error(`${SERVER_BUILD} is missing: run npm run build first`);

describe.each(ENGINES)("the newsletter's console routes on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  let issue: IssueDetail;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine, mailTo(smtp.url, { PUBLIC_ORIGIN: ORIGIN }), { renderer });
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
      ...newsletterDraft("previewed"),
      body: "## Cloud costs\n\nRead [our work](/weserve).\n\n<script>alert(1)</script>",
    });
    expect(created.statusCode, created.body).toBe(201);
    issue = created.json();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("shows the e-mail as it will arrive, in a sandbox only the console may frame", async () => {
    const response = await viewer.request("GET", NEWSLETTER_PATHS.emailPreview(issue.id));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    const policy = String(response.headers["content-security-policy"]);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("sandbox");
    expect(policy).not.toContain("script-src");
    expect(response.body).toContain("Cloud costs");
    expect(response.body).toContain(`href="${ORIGIN}/weserve"`);
    expect(response.body).not.toContain("<script>alert");
    expect(response.body).toContain(`${ORIGIN}/insight/previewed`);
  });

  it("shows the plain-text part", async () => {
    const response = await viewer.request("GET", NEWSLETTER_PATHS.textPreview(issue.id));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toContain("Cloud costs");
    // No markup of the e-mail's (the body's own "<script>" is text the editor typed).
    expect(response.body).not.toMatch(/<(p|a|h2|table|div|span)\b/);
    expect(response.body).toContain("our work [https://www.firm.example/weserve]");
  });

  it("shows the web page it will become, sandboxed and framable by the console", async () => {
    const response = await viewer.request("GET", NEWSLETTER_PATHS.webPreview(issue.id));
    expect(response.statusCode).toBe(200);
    const policy = String(response.headers["content-security-policy"]);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toContain("frame-ancestors 'none'");
    expect(policy).toContain("sandbox");
    expect(response.body).toContain("<h1");
    expect(response.body).toContain("Issue previewed");
    expect(response.body).toContain("<h2>Cloud costs</h2>");
    expect(response.body).toContain('href="/weserve"');
    expect(response.body).not.toContain("<script");
  });

  it("sends a test copy to the editor's own address, and audits it", async () => {
    const response = await editor.request("POST", NEWSLETTER_PATHS.testSend(issue.id), {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toContain("editor@firm.example");
    const [copy] = await smtp.waitForMailTo("editor@firm.example");
    expect(copy?.parsed.subject).toBe(`[Test] ${issue.title}`);
    expect(copy?.parsed.text).toContain("Cloud costs");
    expect(header(copy ?? ({} as never), "list-id")).toBe("Insight <insight.www.firm.example>");
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor"])
      .where("target", "=", `issue:${issue.id}`)
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "issue-created", actor: "editor@firm.example" },
        { action: "issue-test-sent", actor: "editor@firm.example" },
      ]),
    );
  });

  it("lets a viewer read but not write", async () => {
    expect((await viewer.request("GET", NEWSLETTER_PATHS.one(issue.id))).statusCode).toBe(200);
    expect((await viewer.request("GET", NEWSLETTER_PATHS.list)).json().items).toHaveLength(1);
    for (const path of [NEWSLETTER_PATHS.testSend(issue.id), NEWSLETTER_PATHS.send(issue.id)]) {
      expect((await viewer.request("POST", path, {})).statusCode).toBe(403);
    }
  });

  it("deletes a draft, and answers 404 for it afterwards", async () => {
    const draft = (
      await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("gone"))
    ).json();
    expect((await editor.request("DELETE", NEWSLETTER_PATHS.one(draft.id))).statusCode).toBe(204);
    const after = await editor.request("GET", NEWSLETTER_PATHS.one(draft.id));
    expect(after.statusCode).toBe(404);
    expect(after.json().message).toContain("does not exist");
  });
});
