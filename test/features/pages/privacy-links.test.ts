/**
 * Without JavaScript the privacy notice is reached by plain links: from the
 * footer of every page and from the line under each form, as the server
 * renders them, to the notice's page, which holds every section and the
 * firm's address. What a reader without scripts gets is exactly this HTML;
 * the same links followed by the client-side router are browser tests
 * (e2e/privacy.spec.ts). Rendered by the real server build.
 */
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import site from "../../../content/site.json" with { type: "json" };
import { PRIVACY_LINES, PRIVACY_PATH, SCREEN_PATHS } from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const [sqlite] = ENGINES;

/** Each form, the page it is on, and the line under it. */
const FORMS = [
  {
    name: "contact form",
    path: "/contact-us",
    form: "form.inquiry-form",
    line: PRIVACY_LINES.inquiry,
  },
  {
    name: "subscribe form",
    path: "/",
    form: "footer form.subscribe",
    line: PRIVACY_LINES.subscription,
  },
];

const NOTICE_LINK = /privacy notice/i;

/** What the parsed page's elements offer that the tests read. */
interface ParentOfLinks {
  querySelectorAll(selector: "a"): Iterable<{
    textContent: string | null;
    getAttribute(name: string): string | null;
  }>;
}

describe("the privacy notice without JavaScript", () => {
  let t: TestApp;
  const window = new Window();
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { renderer });
  });
  afterAll(async () => {
    await window.happyDOM.close();
    await t.close();
  });

  async function page(url: string) {
    const response = await t.app.inject({ url });
    expect(response.statusCode, url).toBe(200);
    return new window.DOMParser().parseFromString(response.body, "text/html");
  }

  /** The addresses of the links named like the notice's inside `scope`. */
  const noticeLinks = (scope: ParentOfLinks | null) =>
    [...(scope?.querySelectorAll("a") ?? [])]
      .filter((link) => NOTICE_LINK.test(link.textContent ?? ""))
      .map((link) => link.getAttribute("href"));

  it("is linked from the footer of every page", async () => {
    for (const path of SCREEN_PATHS) {
      const document = await page(path);
      expect(noticeLinks(document.querySelector("footer .site-footer__legal")), path).toEqual([
        PRIVACY_PATH,
      ]);
    }
  });

  for (const { name, path, form, line } of FORMS) {
    it(`is linked from the line under the ${name}`, async () => {
      const note = (await page(path)).querySelector(`${form} .privacy-note`);
      expect(note?.textContent).toContain(line);
      expect(noticeLinks(note)).toEqual([PRIVACY_PATH]);
    });
  }

  it("is a page of its own with every section and the firm's address", async () => {
    const document = await page(PRIVACY_PATH);
    expect(document.title).toMatch(/^Privacy notice \|/);
    expect([...document.querySelectorAll("h1")].map((h1) => h1.textContent?.trim())).toEqual([
      "Privacy notice",
    ]);
    const sections = [...document.querySelectorAll("h2")].map((h2) => h2.textContent?.trim());
    for (const heading of [
      "When you send us an inquiry",
      "When you subscribe to Insight",
      "Erasing your details",
      "Who else sees your details",
      "Questions and requests",
    ]) {
      expect(sections).toContain(heading);
    }
    const mail = [...document.querySelectorAll("a")].find(
      (link) => link.textContent?.trim() === site.contactEmail,
    );
    expect(mail?.getAttribute("href")).toBe(`mailto:${site.contactEmail}`);
  });
});
