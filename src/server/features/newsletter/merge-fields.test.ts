/**
 * Merge fields from the console to the reader, on both engines, through a
 * real send to a real SMTP server: each copy's Subject and body read the
 * reader's own name or the fallback; the previews read as a named
 * subscriber the editor picks, or with the fallbacks; a test copy to an
 * address on the list reads that person's name; the archive page reads
 * the fallbacks.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { unwrapped } from "../../../../test/support/mail-text.ts";
import { addSubscribers } from "../../../../test/support/newsletter.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import { startSmtp, type TestSmtp } from "../../../../test/support/smtp.ts";
import { withQuery } from "../../../admin/api/client.ts";
import {
  type IssueDetail,
  NEWSLETTER_PATHS,
  NEWSLETTER_TEXTS,
  type PreviewReader,
} from "../../../shared/admin/newsletter.ts";
import { insightIssuePath } from "../../../shared/routes.ts";

const SLUG = "hello-by-name";
const DRAFT = {
  title: "Hello {first_name|there}",
  slug: SLUG,
  summary: "A note for {first_name|you}.",
  body: "Dear {first_name|reader} {last_name|},\n\nThank you for reading.",
};

describe.each(ENGINES)("merge fields, on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;
  let issue: IssueDetail;
  let ada = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine, mailTo(smtp.url), { renderer });
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
    await addSubscribers(t.database, "reader", 3);
    const named = await t.database.db
      .updateTable("subscriptions")
      .set({ first_name: "Ada", last_name: "Lovelace" })
      .where("email", "=", "reader-1@example.com")
      .returning("id")
      .executeTakeFirstOrThrow();
    ada = named.id;
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, DRAFT);
    expect(created.statusCode, created.body).toBe(201);
    issue = created.json();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const preview = (path: string, query: Record<string, unknown> = {}) =>
    editor.request("GET", withQuery(path, query));

  it("offers the named subscribers to preview as", async () => {
    const answer = await editor.request("GET", NEWSLETTER_PATHS.previewReaders);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().items as PreviewReader[]).toEqual([
      { id: ada, email: "reader-1@example.com", firstName: "Ada", lastName: "Lovelace" },
    ]);
  });

  it("previews the e-mail with the fallbacks, or as the subscriber picked", async () => {
    const plain = await preview(NEWSLETTER_PATHS.textPreview(issue.id));
    expect(unwrapped(plain.body)).toContain("Dear reader ,");
    const asAda = await preview(NEWSLETTER_PATHS.textPreview(issue.id), { as: ada });
    expect(unwrapped(asAda.body)).toContain("Dear Ada Lovelace,");
    const html = await preview(NEWSLETTER_PATHS.emailPreview(issue.id), { as: ada });
    expect(html.body).toContain("Hello Ada");
    expect(html.body).not.toContain("{{merge:");
  });

  it("refuses to preview as someone who is not on the list, or is no id", async () => {
    const missing = await preview(NEWSLETTER_PATHS.emailPreview(issue.id), { as: 2_000_000_000 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: NEWSLETTER_TEXTS.readerNotFound });
    for (const as of ["abc", "1e3", "-1", "99999999999"]) {
      const refused = await preview(NEWSLETTER_PATHS.textPreview(issue.id), { as });
      expect(refused.statusCode, as).toBe(400);
    }
  });

  it("gives a test copy the name of an address on the list, and the fallbacks elsewhere", async () => {
    const sent = await editor.request("POST", NEWSLETTER_PATHS.testSend(issue.id), {
      to: ["READER-1@example.com", "colleague@firm.example"],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [toAda] = await smtp.waitForMailTo("READER-1@example.com");
    const [toColleague] = await smtp.waitForMailTo("colleague@firm.example");
    expect(toAda?.parsed.subject).toBe("[Test] Hello Ada");
    expect(toColleague?.parsed.subject).toBe("[Test] Hello there");
  });

  it("sends each reader their own name, or the fallback, in the Subject and the body", async () => {
    const sent = await editor.request("POST", NEWSLETTER_PATHS.send(issue.id), {});
    expect(sent.statusCode, sent.body).toBe(200);
    const [adaCopy] = await smtp.waitForMailTo("reader-1@example.com");
    const [otherCopy] = await smtp.waitForMailTo("reader-2@example.com");
    expect(adaCopy?.parsed.subject).toBe("Hello Ada");
    expect(unwrapped(adaCopy?.parsed.text ?? "")).toContain("Dear Ada Lovelace,");
    expect(adaCopy?.parsed.html).toContain("A note for Ada.");
    expect(otherCopy?.parsed.subject).toBe("Hello there");
    expect(unwrapped(otherCopy?.parsed.text ?? "")).toContain("Dear reader ,");
    for (const copy of [adaCopy, otherCopy]) {
      expect(copy?.raw).not.toContain("{{merge:");
      expect(copy?.raw).not.toContain("first_name");
    }
  });

  it("shows the fallbacks on the archive page and in its list", async () => {
    await vi.waitFor(async () => {
      const page = await t.app.inject({ url: insightIssuePath(SLUG) });
      if (page.statusCode !== 200) throw new Error(`the page answers ${page.statusCode}`);
    });
    const page = await t.app.inject({ url: insightIssuePath(SLUG) });
    expect(page.body).toContain(">Hello there</h1>");
    expect(page.body).toContain("Dear reader ,");
    expect(page.body).not.toContain("first_name");
    const list = await t.app.inject({ url: "/insight" });
    expect(list.body).toContain("Hello there");
    expect(list.body).not.toContain("first_name");
  });
});
