/**
 * Both forms work without JavaScript: the browser posts them to /contact-us
 * and /subscribe, the page's action writes through the API's code, and the
 * visitor gets the page with the dialogs' texts, every value kept when the post
 * was not accepted. A post is refused without the cookie, from another site,
 * or without the server's token (ADR 004). Rendered by the real server build
 * (npm test builds it first; TEST_SERVER_BUILD points at another), on both engines.
 */
import escapeHtml from "escape-html";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_LIMIT, FORM_CACHE_CONTROL } from "../../../src/server/features/pages/index.ts";
import { ALREADY_SUBSCRIBED_MESSAGE } from "../../../src/server/features/subscriptions/index.ts";
import { RATE_LIMITED_MESSAGE } from "../../../src/server/platform/security/rate-limit.ts";
import { FORM_REFUSALS, TOKEN_PATTERN } from "../../../src/server/platform/security/xsrf.ts";
import { CONSENT_VIA } from "../../../src/shared/admin/subscribers.ts";
import { DIALOG, FORM_TEXTS } from "../../../src/shared/constants.ts";
import { FIELD_REASONS } from "../../../src/shared/field-rules.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../../../src/shared/inquiry.ts";
import { FORM_TOKEN_FIELD } from "../../../src/shared/page-context.ts";
import { countRows, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES, type EngineCase } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { openFormPage } from "../../support/form-page.ts";
import { inlineScriptHashes } from "../../support/inline-hashes.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

/** The opening tag of the element with this id. */
function tagWithId(html: string, id: string): string {
  const tag = new RegExp(`<(?:input|select|textarea)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no control #${id} in the page`);
  return tag;
}

/** What a control shows: an input's value, a textarea's text, a select's chosen option. */
function shownValue(html: string, id: string): string {
  const tag = tagWithId(html, id);
  if (tag.startsWith("<textarea")) {
    const text = new RegExp(`\\bid="${id}"[^>]*>([^<]*)</textarea>`).exec(html)?.[1] ?? "";
    return text.replace(/^\n/, "");
  }
  if (tag.startsWith("<select")) {
    const select = new RegExp(`\\bid="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "";
    return (
      /<option[^>]*\bselected=""[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*\bselected=""/
        .exec(select)
        ?.slice(1)
        .find((value) => value !== undefined) ?? ""
    );
  }
  return /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? "";
}

const FIELDS = Object.keys(INQUIRY_FIELDS) as InquiryField[];
const inquiryId = (field: InquiryField) => `inquiry-${field}`;

describe.each(ENGINES)("forms posted without JavaScript on $engine", (engine) => {
  let t: TestApp;
  let cookie: string;
  let token: string;
  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
    ({ cookie, token } = await openFormPage(t.app));
  });
  afterAll(() => t.close());

  /** A browser's post of a form on this site, as Chromium sends it. */
  function postForm(
    url: string,
    fields: Record<string, string>,
    headers: Record<string, string | undefined> = {},
  ): Promise<LightMyRequestResponse> {
    const sent = Object.fromEntries(
      Object.entries({
        cookie,
        origin: t.config.PUBLIC_ORIGIN,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
        ...headers,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return t.app.inject({
      method: "POST",
      url,
      headers: sent,
      payload: new URLSearchParams(fields).toString(),
    });
  }

  const inquiry = (overrides: Partial<Record<InquiryField, string>> = {}) => ({
    [FORM_TOKEN_FIELD]: token,
    ...VALID_INQUIRY,
    ...overrides,
  });

  const count = (table: "inquiries" | "subscriptions" | "outbox") => countRows(t.database, table);

  async function counts() {
    return {
      inquiries: await count("inquiries"),
      subscriptions: await count("subscriptions"),
      outbox: await count("outbox"),
    };
  }

  it("every page's forms post to their pages and carry the same token", async () => {
    const other = await t.app.inject({ url: "/weare" });
    expect(other.body).toContain(`name="${FORM_TOKEN_FIELD}" value="${token}"`);
    expect(other.body).toMatch(/<form[^>]*action="\/subscribe"[^>]*method="post"/);
    const contact = await t.app.inject({ url: "/contact-us" });
    expect(contact.body).toMatch(/<form[^>]*action="\/contact-us#inquiry-form"[^>]*method="post"/);
  });

  it("a valid inquiry stores exactly one row, queues its mail and says thank you", async () => {
    const before = await counts();
    const marker = `No script, one row ${engine.engine}`;
    const response = await postForm("/contact-us", inquiry({ comments: marker }));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toMatch(/<div class="form-status form-status--ok" role="status">/);
    expect(response.body).toContain(asHtml(DIALOG.successTitle));
    expect(response.body).toContain(asHtml(DIALOG.inquiryReceived));
    for (const field of FIELDS) expect(shownValue(response.body, inquiryId(field)), field).toBe("");

    expect(await counts()).toEqual({
      ...before,
      inquiries: before.inquiries + 1,
      outbox: before.outbox + 1,
    });
    const row = await t.database.db
      .selectFrom("inquiries")
      .selectAll()
      .where("comments", "=", marker)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      first_name: VALID_INQUIRY.firstName,
      last_name: VALID_INQUIRY.lastName,
      company: VALID_INQUIRY.company,
      job_title: VALID_INQUIRY.jobTitle,
      email: VALID_INQUIRY.email,
      phone_number: VALID_INQUIRY.phoneNumber,
      inquiry_type: VALID_INQUIRY.inquiryType,
    });
    const mail = await t.database.db
      .selectFrom("outbox")
      .select(["kind", "message"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.kind).toBe("inquiry-notification");
    expect(mail.message).toContain(marker);
  });

  it("the answer is rendered for the post: not stored, with a policy for its own scripts", async () => {
    const response = await postForm("/contact-us", inquiry({ comments: "Policy check" }));
    expect(response.headers["cache-control"]).toBe(FORM_CACHE_CONTROL);
    const policy = String(response.headers["content-security-policy"]);
    const hashes = inlineScriptHashes(response.body);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(policy).toContain(`'${hash}'`);
  });

  it("an address the browser accepts but the rules refuse stores nothing and keeps every value", async () => {
    const before = await counts();
    const response = await postForm("/contact-us", inquiry({ email: "jane@acme" }));
    expect(response.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    expect(response.body).toMatch(/role="alert"/);
    expect(response.body).toContain(asHtml(DIALOG.inquiryFailed));
    expect(response.body).toContain(asHtml(FORM_TEXTS.checkFields));
    const email = tagWithId(response.body, inquiryId("email"));
    expect(email).toContain('aria-invalid="true"');
    expect(email).toContain(`aria-describedby="${inquiryId("email")}-error"`);
    const reason = new RegExp(`<p id="${inquiryId("email")}-error"[^>]*>([\\s\\S]*?)</p>`).exec(
      response.body,
    )?.[1];
    expect(reason?.replaceAll("<!-- -->", "")).toBe(
      `${INQUIRY_FIELDS.email.label} ${FIELD_REASONS.email}.`,
    );
    const kept = { ...VALID_INQUIRY, email: "jane@acme" };
    for (const field of FIELDS) {
      expect(shownValue(response.body, inquiryId(field)), field).toBe(asHtml(kept[field]));
    }
    expect(tagWithId(response.body, inquiryId("firstName"))).not.toContain("aria-invalid");
  });

  it("a name of spaces and a missing comment are each refused next to their field", async () => {
    const before = await counts();
    const response = await postForm("/contact-us", inquiry({ firstName: "   ", comments: "" }));
    expect(response.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    for (const field of ["firstName", "comments"] as const) {
      expect(tagWithId(response.body, inquiryId(field))).toContain('aria-invalid="true"');
      expect(response.body).toContain(`id="${inquiryId(field)}-error"`);
    }
  });

  /** Each refused post: its case, the headers it changes, its token (given the page's), the reason. */
  const refusals: [
    string,
    Record<string, string | undefined>,
    (valid: string) => string,
    string,
  ][] = [
    ["without the cookie", { cookie: undefined }, (valid) => valid, FORM_REFUSALS.noCookie],
    [
      "from another site (Sec-Fetch-Site)",
      { "sec-fetch-site": "cross-site" },
      (valid) => valid,
      FORM_REFUSALS.crossSite,
    ],
    [
      "from a sibling site (Sec-Fetch-Site)",
      { "sec-fetch-site": "same-site" },
      (valid) => valid,
      FORM_REFUSALS.crossSite,
    ],
    [
      "from another origin (Origin)",
      { origin: "https://attacker.example" },
      (valid) => valid,
      FORM_REFUSALS.crossSite,
    ],
    [
      "with a wrong token",
      {},
      (valid) => `${valid.slice(0, -1)}${valid.endsWith("A") ? "B" : "A"}`,
      FORM_REFUSALS.staleForm,
    ],
    ["without the token", {}, () => "", FORM_REFUSALS.staleForm],
  ];

  it.each(refusals)(
    "an inquiry %s is refused with a page that keeps the values",
    async (_case, headers, tokenOf, message) => {
      const before = await counts();
      const response = await postForm(
        "/contact-us",
        { ...inquiry(), [FORM_TOKEN_FIELD]: tokenOf(token) },
        headers,
      );
      expect(response.statusCode).toBe(403);
      expect(await counts()).toEqual(before);
      expect(response.body).toContain(asHtml(DIALOG.inquiryFailed));
      expect(response.body).toContain(asHtml(message));
      for (const field of FIELDS) {
        expect(shownValue(response.body, inquiryId(field)), field).toBe(
          asHtml(VALID_INQUIRY[field]),
        );
      }
    },
  );

  it("a post with Origin: null from this site (Chromium under Referrer-Policy: no-referrer) is accepted", async () => {
    const response = await postForm("/contact-us", inquiry({ comments: "Origin null" }), {
      origin: "null",
    });
    expect(response.statusCode).toBe(200);
  });

  it("a refused post without the cookie gets one, so that sending again from the page works", async () => {
    const refused = await postForm("/contact-us", inquiry(), { cookie: undefined });
    const issued = refused.cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
    expect(issued).toMatch(TOKEN_PATTERN);
    const again = await postForm("/contact-us", inquiry(), { cookie: `XSRF-TOKEN=${issued}` });
    expect(again.statusCode).toBe(200);
  });

  it("a subscription posted from the footer: subscribed, then the server's 409 message", async () => {
    const before = await counts();
    const address = `no-script-${engine.engine}@example.com`;
    const first = await postForm("/subscribe", { [FORM_TOKEN_FIELD]: token, emailId: address });
    expect(first.statusCode).toBe(201);
    expect(first.body).toContain(asHtml(DIALOG.successTitle));
    expect(first.body).toContain(asHtml(DIALOG.subscribed));
    expect(shownValue(first.body, "subscribe-page-email")).toBe("");
    expect(await counts()).toEqual({
      ...before,
      subscriptions: before.subscriptions + 1,
      outbox: before.outbox + 1,
    });
    // Its consent history names the way it came: the form, not the page's script.
    const { id } = await t.database.db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", address)
      .executeTakeFirstOrThrow();
    const history = await t.database.db
      .selectFrom("subscription_events")
      .select(["event", "via"])
      .where("subscription_id", "=", id)
      .execute();
    expect(history).toEqual([{ event: "subscribed", via: CONSENT_VIA.form }]);

    const again = await postForm("/subscribe", {
      [FORM_TOKEN_FIELD]: token,
      emailId: address.toUpperCase(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(asHtml(ALREADY_SUBSCRIBED_MESSAGE));
    expect(shownValue(again.body, "subscribe-page-email")).toBe(address.toUpperCase());
    expect(await counts()).toEqual({
      ...before,
      subscriptions: before.subscriptions + 1,
      outbox: before.outbox + 1,
    });
  });

  it.each(["a@b", "jane@acme", "   "])(
    "the address %j is refused next to the field, and nothing is stored",
    async (address) => {
      const before = await counts();
      const response = await postForm("/subscribe", {
        [FORM_TOKEN_FIELD]: token,
        emailId: address,
      });
      expect(response.statusCode).toBe(400);
      expect(await counts()).toEqual(before);
      expect(response.body).toContain(asHtml(DIALOG.somethingWrong));
      expect(tagWithId(response.body, "subscribe-page-email")).toContain('aria-invalid="true"');
      expect(response.body).toContain('id="subscribe-page-email-error"');
      expect(shownValue(response.body, "subscribe-page-email")).toBe(address);
    },
  );

  it("a subscription without the token is refused and stores nothing", async () => {
    const before = await counts();
    const response = await postForm("/subscribe", { emailId: "tokenless@example.com" });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(asHtml(FORM_REFUSALS.staleForm));
    expect(await counts()).toEqual(before);
  });

  it("a body over the limit, or not a form, gets the page with a reason", async () => {
    const large = await postForm("/contact-us", inquiry({ comments: "x".repeat(FORM_BODY_LIMIT) }));
    expect(large.statusCode).toBe(413);
    expect(large.headers["content-type"]).toMatch(/^text\/html/);
    expect(large.body).toContain(asHtml(DIALOG.inquiryFailed));
    const json = await t.app.inject({
      method: "POST",
      url: "/subscribe",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ emailId: "json@example.com" }),
    });
    expect(json.statusCode).toBe(415);
    expect(json.body).toContain(asHtml(DIALOG.somethingWrong));
  });

  it("the longest inquiry the fields allow, in any script, fits in the limit", () => {
    const longest = Object.fromEntries(
      FIELDS.map((field) => [field, "語".repeat(INQUIRY_FIELDS[field].maxLength)]),
    );
    const body = new URLSearchParams({ [FORM_TOKEN_FIELD]: token, ...longest }).toString();
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(FORM_BODY_LIMIT);
  });
});

describe.each(ENGINES.slice(0, 1) as EngineCase[])(
  "form posts share the API's write limit on $engine",
  (engine) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(engine, { RATE_LIMIT_PER_MINUTE: "2" }, { renderer });
    });
    afterAll(() => t.close());

    it("the post over the limit gets the page with the reason", async () => {
      const post = () =>
        t.app.inject({
          method: "POST",
          url: "/subscribe",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: "emailId=limit%40example.com",
        });
      expect((await post()).statusCode).toBe(403);
      expect((await post()).statusCode).toBe(403);
      const limited = await post();
      expect(limited.statusCode).toBe(429);
      expect(limited.body).toContain(asHtml(RATE_LIMITED_MESSAGE));
      expect(limited.body).toContain('id="subscribe-page-email"');
    });
  },
);
