/**
 * The console's text goes through the shared field rules (field-rules.ts),
 * as the public forms' does: what a person writes in the console is kept
 * exactly, curly quotes, dashes, other scripts and emoji included, and the
 * fields of several lines (a newsletter's summary and body, a note, a
 * biography, a case study's sections) keep their line breaks and tabs. The
 * refusals themselves, every write and every field, are the hostile-input
 * suite's (test/site/hostile-input.test.ts); here, on both engines, what is
 * kept, and a line break refused where one line is the rule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeInquiry } from "../../src/server/features/inquiries/index.ts";
import { CONTENT_PATHS, type Entry } from "../../src/shared/admin/content.ts";
import { INQUIRY_PATHS, inquiryPath } from "../../src/shared/admin/inquiries.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../src/shared/admin/newsletter.ts";
import { SITE_FACTS_PATHS } from "../../src/shared/admin/site-facts.ts";
import { FIELD_REASONS } from "../../src/shared/field-rules.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../support/console.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { newsletterDraft } from "../support/newsletter.ts";

/** One line as people write it: curly quotes, a dash, accents, Hebrew with its mark, emoji. */
const ONE_LINE = "Zoë’s “cloud” costs — Łódź, 東京, שלום\u200F 👩🏽‍💻";
/** Several lines: blank lines between paragraphs, a tab, a Windows line ending. */
const LINES = `${ONE_LINE}\n\n\tIndented, as Markdown’s code is.\r\n– a list’s line`;

describe.each(ENGINES)("the console's text on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;

  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "editor", "text-editor@firm.example");
    editor = await signIn(t.app, "text-editor@firm.example");
  });
  afterAll(() => t.close());

  it("keeps a newsletter's title, summary and body exactly, lines and tabs included", async () => {
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
      ...newsletterDraft("kept-as-written"),
      title: ONE_LINE,
      summary: LINES,
      body: LINES,
    });
    expect(created.statusCode, created.body).toBe(201);
    const shown: IssueDetail = (
      await editor.request("GET", NEWSLETTER_PATHS.one(created.json().id))
    ).json();
    expect({ title: shown.title, summary: shown.summary, body: shown.body }).toEqual({
      title: ONE_LINE,
      summary: LINES,
      body: LINES,
    });
  });

  it("refuses a line break in the title, which becomes every copy's subject", async () => {
    const response = await editor.request("POST", NEWSLETTER_PATHS.list, {
      ...newsletterDraft("two-line-title"),
      title: "Cloud costs\nBcc: everyone@example.com",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: `Invalid request: title ${FIELD_REASONS.lineBreak}.`,
      fields: { title: FIELD_REASONS.lineBreak },
    });
    const { n } = await t.database.db
      .selectFrom("issues")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("slug", "=", "two-line-title")
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(0);
  });

  it("keeps a note's lines and tabs", async () => {
    const id = await storeInquiry(t.app, VALID_INQUIRY);
    const response = await editor.request("POST", inquiryPath(INQUIRY_PATHS.notes, id), {
      body: LINES,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().notes.map((note: { body: string }) => note.body)).toEqual([LINES]);
  });

  it("keeps a team member's name on one line and a biography's lines (as \\n)", async () => {
    const response = await editor.request("POST", CONTENT_PATHS.list("team"), {
      fields: { fullname: ONE_LINE, title: ONE_LINE, bio: LINES, imagePath: "a.webp" },
      hidden: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const entry: Entry = response.json();
    expect(entry.fields).toEqual({
      fullname: ONE_LINE,
      title: ONE_LINE,
      bio: LINES.replace("\r\n", "\n"),
      imagePath: "a.webp",
    });
  });

  it("keeps a case study's paragraphs", async () => {
    const sections = `${ONE_LINE}\n\nA second paragraph.`;
    const response = await editor.request("POST", CONTENT_PATHS.list("case-studies"), {
      fields: {
        slug: "kept-as-written",
        title: `Finance: ${ONE_LINE}`,
        summary: LINES,
        opportunity: sections,
        solution: sections,
        work: sections,
      },
      hidden: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().fields).toMatchObject({
      summary: LINES.replace("\r\n", "\n"),
      opportunity: sections,
    });
  });

  it("takes the site facts' lines, joined as the page shows one paragraph", async () => {
    const current = (await editor.request("GET", SITE_FACTS_PATHS.facts)).json();
    const response = await editor.request("PUT", SITE_FACTS_PATHS.facts, {
      fields: { ...current.fields, mission: `${ONE_LINE}\nTogether.` },
      version: current.version,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().fields.mission).toBe(`${ONE_LINE} Together.`);
  });
});
