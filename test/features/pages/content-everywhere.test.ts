/**
 * One change in the console reaches every place the site names the firm's
 * content: an industry renamed, a capability hidden and the capabilities
 * reordered through the console's content routes show, on the next request
 * and with no restart, on /wedo and /weserve, in the desktop mega-menu, in
 * the contact form's inquiry types and in Home's count, and the mobile menu,
 * the sitemap and the JSON-LD hold nothing stale. The inquiry API and the
 * form posted without JavaScript accept exactly the new types; an inquiry
 * of the withdrawn type stays readable and findable in the console.
 * Rendered by the real server build, on both engines.
 */
import { readFileSync } from "node:fs";
import escapeHtml from "escape-html";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTENT_PATHS,
  type ContentList,
  type ListAnswer,
} from "../../../src/shared/admin/content.ts";
import {
  INQUIRY_PATHS,
  type InquiryDetail,
  type InquiryPage,
  inquiryPath,
} from "../../../src/shared/admin/inquiries.ts";
import { FIELD_REASONS } from "../../../src/shared/field-rules.ts";
import { INQUIRY_TYPE_PLACEHOLDER } from "../../../src/shared/inquiry.ts";
import { FORM_TOKEN_FIELD } from "../../../src/shared/page-context.ts";
import { entryLine } from "../../../src/web/lib/site-entries.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { openFormPage } from "../../support/form-page.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

/** How React writes a text into the HTML. */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

const OLD_INDUSTRY = "Finance";
const NEW_INDUSTRY = "Banking & Insurance";
const HIDDEN = "Automation";
const MOVED_FIRST = "Tech Stack Management";
/** The capabilities after the changes, in their new order. */
const CAPABILITIES_AFTER = [
  MOVED_FIRST,
  "App Development",
  "Cloud Infrastructure",
  "Data Management",
  "Digital Strategy",
  "Machine Learning",
  "Predictive Analytics",
];
/** The inquiry types after the changes: the capabilities' ("App development" spelt so), then "Something Else". */
const TYPES_AFTER = [
  MOVED_FIRST,
  "App development",
  ...CAPABILITIES_AFTER.slice(2),
  "Something Else",
];

/** The HTML from `marker` to the first `until` after it. */
function part(html: string, marker: string, until: string): string {
  const start = html.indexOf(marker);
  if (start < 0) return "";
  const end = html.indexOf(until, start + marker.length);
  return html.slice(start, end < 0 ? undefined : end + until.length);
}

/** A mega-menu panel: from its element to the next section of the navigation. */
const panel = (html: string, id: string) => part(html, `id="panel-${id}"`, 'class="mega-nav__item');

/** The texts of the elements carrying `className`, in the order of the HTML. */
function textsOf(html: string, tag: string, className: string): string[] {
  const pattern = new RegExp(`<${tag}[^>]*class="${className}"[^>]*>([^<]*)</${tag}>`, "g");
  return [...html.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** The labels of the links in `html`, in order. */
function linkTexts(html: string): string[] {
  return [...html.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((match) => match[1] ?? "");
}

const NEW_MENU_LINE = "Banks and insurers, from branch to balance sheet.";
const CONSTRUCTION_DESCRIPTION: string = JSON.parse(
  readFileSync("content/items.json", "utf8"),
).industries.find((item: { name: string }) => item.name === "Construction").description;

describe.each(SQLITE_ONLY)(
  "a console change on $engine reaches every place that names it",
  (engine) => {
    let t: TestApp;
    let editor: ConsoleClient;
    let oldInquiryId: number;
    let sitemapBefore: string;

    const page = async (url: string) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      return response.body;
    };
    const list = async (name: ContentList) =>
      (await editor.request("GET", CONTENT_PATHS.list(name))).json() as ListAnswer;
    const ok = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(200);
      return response;
    };

    beforeAll(async () => {
      t = await startApp(engine, {}, { renderer });
      await createAccount(t.database, "editor");
      editor = await signIn(t.app, "editor@firm.example");
      // An inquiry sent while the capability was still on offer.
      const session = await openSession(t.app);
      const sent = await post(t.app, session, "/api/v1/send-comment", {
        ...VALID_INQUIRY,
        inquiryType: HIDDEN,
      });
      oldInquiryId = ok(sent).json().id;
      sitemapBefore = await page("/sitemap.xml");

      // The three changes, each as the console makes it.
      const industries = await list("industries");
      const finance = industries.entries.find((entry) => entry.fields.name === OLD_INDUSTRY);
      if (!finance) throw new Error("the seed has no Finance industry");
      ok(
        await editor.request("PUT", CONTENT_PATHS.entry("industries", finance.id), {
          fields: { ...finance.fields, name: NEW_INDUSTRY, menuLine: NEW_MENU_LINE },
          hidden: finance.hidden,
          version: finance.version,
        }),
      );
      // A line cleared: the menu falls back to the start of the description.
      const construction = industries.entries.find((entry) => entry.fields.name === "Construction");
      if (!construction) throw new Error("the seed has no Construction industry");
      ok(
        await editor.request("PUT", CONTENT_PATHS.entry("industries", construction.id), {
          fields: { ...construction.fields, menuLine: "" },
          hidden: construction.hidden,
          version: construction.version,
        }),
      );
      const capabilities = await list("capabilities");
      const hidden = capabilities.entries.find((entry) => entry.fields.name === HIDDEN);
      if (!hidden) throw new Error("the seed has no Automation capability");
      ok(
        await editor.request("PUT", CONTENT_PATHS.visibility("capabilities", hidden.id), {
          hidden: true,
          version: hidden.version,
        }),
      );
      const moved = capabilities.entries.find((entry) => entry.fields.name === MOVED_FIRST);
      if (!moved) throw new Error("the seed has no Tech Stack Management capability");
      const others = capabilities.entries.filter((entry) => entry !== moved).map(({ id }) => id);
      ok(
        await editor.request("PUT", CONTENT_PATHS.order("capabilities"), {
          orderVersion: capabilities.orderVersion,
          ids: [moved.id, ...others],
        }),
      );
    });
    afterAll(() => t.close());

    it("/wedo lists the visible capabilities in their new order", async () => {
      const html = await page("/wedo");
      expect(textsOf(html, "h3", "capability__name")).toEqual(CAPABILITIES_AFTER);
    });

    it("/weserve names the industry by its new name only", async () => {
      const section = part(await page("/weserve"), 'id="industries&amp;techneeds"', "</section>");
      expect(section).toContain(`>${asHtml(NEW_INDUSTRY)}<`);
      expect(section).not.toContain(`>${OLD_INDUSTRY}<`);
    });

    it("the desktop mega-menu follows on every page: new name, new order, no hidden one, the count", async () => {
      for (const url of ["/", "/wedo", "/weserve", "/contact-us"]) {
        const html = await page(url);
        const serve = panel(html, "serve");
        expect(serve, url).toContain(
          `<a href="/weserve#industries-banking-insurance" data-discover="true">${asHtml(NEW_INDUSTRY)}</a>`,
        );
        expect(linkTexts(serve), url).not.toContain(OLD_INDUSTRY);
        // The line the firm wrote with the rename; a cleared one gives the description's start;
        // an untouched one keeps the seed's.
        expect(serve, url).toContain(`>${asHtml(NEW_MENU_LINE)}<`);
        expect(serve, url).toContain(`>${asHtml(entryLine(CONSTRUCTION_DESCRIPTION))}<`);
        expect(serve, url).toContain(">Maintenance and quality predicted, not reacted to.<");

        const wedo = panel(html, "do");
        expect(linkTexts(wedo), url).toEqual([
          "What We Do",
          "Capabilities",
          ...CAPABILITIES_AFTER,
          "Methodology",
        ]);
        expect(wedo, url).toContain(">Seven disciplines, staffed by practitioners.<");
        expect(wedo, url).not.toContain(HIDDEN);
      }
    });

    it("the mobile menu names no entry at all: its four links are the sections and Contact Us", async () => {
      const mobile = part(await page("/"), '<nav class="mobile-nav"', "</nav>");
      expect(linkTexts(mobile)).toEqual(["Who We Serve", "What We Do", "Who We Are", "Contact Us"]);
    });

    it("the contact form offers the new types, and the browser gets the same entries to hydrate with", async () => {
      const html = await page("/contact-us");
      const select = part(html, '<select id="inquiry-inquiryType"', "</select>");
      const options = [...select.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((m) => m[1]);
      expect(options).toEqual([INQUIRY_TYPE_PLACEHOLDER, ...TYPES_AFTER]);
      // The root loader's data the browser hydrates with carries the same entries.
      // (React Router writes it as a JSON text inside a script's string: quotes come escaped.)
      const data = part(html, "streamController.enqueue(", "</script>");
      const quoted = (name: string) => `\\"${name}\\"`;
      expect(data).toContain("Banking");
      expect(data).not.toContain(quoted(HIDDEN));
      for (const name of CAPABILITIES_AFTER) expect(data).toContain(quoted(name));
    });

    it("Home counts the capabilities shown now", async () => {
      const html = await page("/");
      expect(html).toContain(
        "Seven capabilities, one method: business and technical experts side by side.",
      );
      expect(html).not.toContain("Eight capabilities");
    });

    it("the sitemap dates /wedo and /weserve by the change and names no entry", async () => {
      const sitemap = await page("/sitemap.xml");
      const lastmod = (xml: string, path: string) =>
        new RegExp(`<loc>[^<]*${path}</loc><lastmod>([^<]+)</lastmod>`).exec(xml)?.[1] ?? "";
      for (const path of ["/wedo", "/weserve"]) {
        expect(lastmod(sitemap, path) > lastmod(sitemapBefore, path), path).toBe(true);
      }
      for (const name of [OLD_INDUSTRY, NEW_INDUSTRY, HIDDEN, ...CAPABILITIES_AFTER]) {
        expect(sitemap).not.toContain(name);
      }
    });

    it("the pages' JSON-LD names no entry, so nothing in it can go stale", async () => {
      for (const url of ["/", "/wedo", "/weserve", "/contact-us"]) {
        const blocks = [
          ...(await page(url)).matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g),
        ].map((match) => match[1] ?? "");
        expect(blocks.length, url).toBeGreaterThan(0);
        for (const block of blocks) {
          for (const name of [OLD_INDUSTRY, NEW_INDUSTRY, HIDDEN, ...CAPABILITIES_AFTER]) {
            expect(block, `${url}: ${name}`).not.toContain(name);
          }
        }
      }
    });

    it("the inquiry API accepts each new type and refuses the hidden capability's, in the field's words", async () => {
      const session = await openSession(t.app);
      for (const inquiryType of TYPES_AFTER) {
        const response = await post(t.app, session, "/api/v1/send-comment", {
          ...VALID_INQUIRY,
          inquiryType,
        });
        expect(response.statusCode, inquiryType).toBe(200);
      }
      const refused = await post(t.app, session, "/api/v1/send-comment", {
        ...VALID_INQUIRY,
        inquiryType: HIDDEN,
      });
      expect(refused.statusCode).toBe(400);
      const reason = FIELD_REASONS.notChoice(TYPES_AFTER);
      expect(refused.json()).toEqual({
        message: `Invalid request: inquiryType ${reason}.`,
        fields: { inquiryType: reason },
      });
    });

    it("the form posted without JavaScript refuses the hidden capability's type next to its field", async () => {
      const { cookie, token } = await openFormPage(t.app);
      const before = await t.database.db
        .selectFrom("inquiries")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      const response = await t.app.inject({
        method: "POST",
        url: "/contact-us",
        headers: {
          cookie,
          origin: t.config.PUBLIC_ORIGIN,
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: new URLSearchParams({
          [FORM_TOKEN_FIELD]: token,
          ...VALID_INQUIRY,
          inquiryType: HIDDEN,
        }).toString(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(asHtml(FIELD_REASONS.notChoice(TYPES_AFTER)));
      const after = await t.database.db
        .selectFrom("inquiries")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it("an inquiry of the withdrawn type stays readable, and the inbox's filter still offers its type", async () => {
      await createAccount(t.database, "viewer");
      const viewer = await signIn(t.app, "viewer@firm.example");
      const detail = ok(
        await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, oldInquiryId)),
      ).json() as InquiryDetail;
      expect(detail.inquiryType).toBe(HIDDEN);

      const inbox = ok(await viewer.request("GET", INQUIRY_PATHS.list)).json() as InquiryPage;
      expect(inbox.types).toEqual([...TYPES_AFTER, HIDDEN]);
      const filtered = ok(
        await viewer.request("GET", `${INQUIRY_PATHS.list}?type=${encodeURIComponent(HIDDEN)}`),
      ).json() as InquiryPage;
      expect(filtered.inquiries.map(({ id }) => id)).toEqual([oldInquiryId]);
      expect(filtered.inquiries[0]?.inquiryType).toBe(HIDDEN);
    });
  },
);
