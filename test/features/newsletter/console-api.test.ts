/**
 * The console's newsletter routes that are not the send itself: the three
 * previews (framable only by the console, sandboxed), the test copies to the
 * addresses the editor types (their own by default), and the audit of every
 * write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type IssueDetail,
  NEWSLETTER_PATHS,
  NEWSLETTER_TEXTS,
  type TestSend,
} from "../../../src/shared/admin/newsletter.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { newsletterDraft } from "../../support/newsletter.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";
import { header, startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
// The web preview is the real page: rendered by the server build (npm test builds first).

describe.each(SQLITE_ONLY)("the newsletter's console routes on $engine", (engine) => {
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
    // Links to the site carry the issue's UTM tags (INSIGHT_LINK_TAGS, on by default).
    expect(response.body).toContain(
      `href="${ORIGIN}/weserve?utm_source=insight&amp;utm_medium=email&amp;utm_campaign=previewed"`,
    );
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
    // The tagged link is longer than a line, so it wraps onto its own.
    expect(response.body).toContain(
      "our work\n[https://www.firm.example/weserve?utm_source=insight&utm_medium=email&utm_campaign=previewed]",
    );
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

  /** The addresses of the test copies in the outbox, in the order they were queued. */
  async function queuedTests(): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom("outbox")
      .select("message")
      .where("kind", "=", "newsletter-test")
      .orderBy("id")
      .execute();
    return rows.map((row) => (JSON.parse(row.message) as { to: string }).to);
  }

  /** The audit entries of the tests of `issue`, newest last. */
  async function testsAudited(): Promise<unknown[]> {
    const rows = await t.database.db
      .selectFrom("audit_log")
      .select("detail")
      .where("target", "=", `issue:${issue.id}`)
      .where("action", "=", "issue-test-sent")
      .orderBy("id")
      .execute();
    return rows.map((row) => JSON.parse(String(row.detail)));
  }

  const sendTest = (body: TestSend | Record<string, unknown>) =>
    editor.request("POST", NEWSLETTER_PATHS.testSend(issue.id), body);

  it("sends a test copy to the editor's own address, and audits it", async () => {
    const response = await sendTest({ to: ["editor@firm.example"] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(NEWSLETTER_TEXTS.testSent(["editor@firm.example"]));
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

  it("sends one copy to each address, a repeat in other letters only once, in one audit entry", async () => {
    const before = await queuedTests();
    const response = await sendTest({
      to: [
        " first@firm.example",
        "Second@Firm.example",
        "third@firm.example ",
        "second@firm.EXAMPLE",
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const recipients = ["first@firm.example", "Second@Firm.example", "third@firm.example"];
    expect(response.json().message).toBe(NEWSLETTER_TEXTS.testSent(recipients));
    expect(response.json().message).toBe(
      "A test was queued to first@firm.example, Second@Firm.example and third@firm.example. Each arrives within a minute.",
    );
    expect((await queuedTests()).slice(before.length)).toEqual(recipients);
    for (const address of ["first@firm.example", "third@firm.example"]) {
      const [copy] = await smtp.waitForMailTo(address);
      expect(copy?.parsed.subject).toBe(`[Test] ${issue.title}`);
    }
    expect((await testsAudited()).at(-1)).toMatchObject({ to: recipients.join(", ") });
  });

  it("refuses more than five addresses, saying so next to the field, and queues none", async () => {
    const before = await queuedTests();
    const audited = await testsAudited();
    const six = ["a", "b", "c", "d", "e", "f"].map((name) => `${name}@firm.example`);
    const response = await sendTest({ to: six });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: NEWSLETTER_TEXTS.testTooManyAddresses,
      fields: { to: "A test goes to five addresses at most: leave some out." },
    });
    // Five different ones, with a sixth that repeats one of them, are five people.
    const fiveAndARepeat = [...six.slice(0, 5), "A@firm.example"];
    expect((await sendTest({ to: fiveAndARepeat })).statusCode).toBe(200);
    expect((await queuedTests()).slice(before.length)).toEqual(six.slice(0, 5));
    expect(await testsAudited()).toHaveLength(audited.length + 1);
  });

  it("refuses an address that is not one, naming it, and queues none of the others", async () => {
    const before = await queuedTests();
    const response = await sendTest({ to: ["good@firm.example", "jane@acme"] });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ to: "jane@acme is not a valid e-mail address." });
    expect(response.json().message).toBe("jane@acme is not a valid e-mail address.");
    expect(await queuedTests()).toEqual(before);
  });

  it("refuses a test to nobody, or addresses not sent as a list, saying why", async () => {
    const before = await queuedTests();
    const refusals = [
      { body: { to: [] }, reason: "Write the address to send the test to." },
      { body: {}, reason: "Write the address to send the test to." },
      { body: { to: ["  "] }, reason: "One of the addresses is empty: write it, or leave it out." },
      { body: { to: "editor@firm.example" }, reason: "Send the addresses as a list." },
    ];
    for (const { body, reason } of refusals) {
      const response = await sendTest(body);
      expect({ body, status: response.statusCode, fields: response.json().fields }).toEqual({
        body,
        status: 400,
        fields: { to: reason },
      });
    }
    expect(await queuedTests()).toEqual(before);
  });

  it("lets a viewer read but not write", async () => {
    expect((await viewer.request("GET", NEWSLETTER_PATHS.one(issue.id))).statusCode).toBe(200);
    expect((await viewer.request("GET", NEWSLETTER_PATHS.list)).json().items).toHaveLength(1);
    for (const path of [NEWSLETTER_PATHS.testSend(issue.id), NEWSLETTER_PATHS.send(issue.id)]) {
      expect((await viewer.request("POST", path, {})).statusCode).toBe(403);
    }
    const before = await queuedTests();
    const test = await viewer.request("POST", NEWSLETTER_PATHS.testSend(issue.id), {
      to: ["viewer@firm.example"],
    });
    expect(test.statusCode).toBe(403);
    expect(await queuedTests()).toEqual(before);
  });

  it("records a draft saved as it is typed as one edit per person in the audit log", async () => {
    const draft: IssueDetail = (
      await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("typed"))
    ).json();
    const save = async (client: ConsoleClient, version: number, body: string) => {
      const saved = await client.request("PUT", NEWSLETTER_PATHS.one(draft.id), {
        ...newsletterDraft("typed"),
        body,
        version,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return (saved.json() as IssueDetail).version;
    };
    let version = draft.version;
    for (const body of ["One.", "One. Two.", "One. Two. Three."]) {
      version = await save(editor, version, body);
    }
    await createAccount(t.database, "editor", "second-editor@firm.example");
    const second = await signIn(t.app, "second-editor@firm.example");
    await save(second, version, "Their turn.");

    const edits = await t.database.db
      .selectFrom("audit_log")
      .select("actor")
      .where("action", "=", "issue-edited")
      .where("target", "=", `issue:${draft.id}`)
      .orderBy("id")
      .execute();
    expect(edits.map((edit) => edit.actor)).toEqual([
      "editor@firm.example",
      "second-editor@firm.example",
    ]);
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
