/**
 * Hostile requests, generated: what an attacker or a
 * broken client sends to every endpoint and static path. Each case says who
 * sends it (a visitor with the cross-site token, a browser posting a form,
 * a signed-in owner, or no one in particular) and what the server must do:
 * refuse it with a 4xx, serve the page or list it asked for, or store the
 * unusual but valid value it carries exactly as sent.
 */
import { CONTENT_LISTS, CONTENT_PATHS, LIST_SPECS } from "../../src/shared/admin/content.ts";
import { DRAFT_PATHS } from "../../src/shared/admin/content-drafts.ts";
import { SITE_FACT_FIELDS, SITE_FACTS_PATHS } from "../../src/shared/admin/site-facts.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../../src/shared/inquiry.ts";
import { FORM_TOKEN_FIELD } from "../../src/shared/page-context.ts";
import { CONFIRM_SUBSCRIPTION_PATH, PAGE_PATHS } from "../../src/shared/routes.ts";
import { VALID_INQUIRY } from "./fixtures.ts";

/** Who sends a case: no cookies at all, a visitor with the XSRF token, a browser form, a signed-in owner. */
export type Sender = "stranger" | "visitor" | "form" | "owner";

export type Expectation =
  /** A 4xx; on an API path with a JSON {message}; elsewhere the 404 page, a {message} or a form's page. */
  | { kind: "refused" }
  /** The resource asked for, despite the oddities around it (a page with a strange query string). */
  | { kind: "served"; status: number }
  /** A 400 in the console's refusal shape, {message, fields}, naming `field`; nothing written, not even to the audit log. */
  | { kind: "invalid"; field: string }
  /** Served or refused (a filter the route may ignore or refuse), but never a failure of the server. */
  | { kind: "answered" }
  /** Accepted, and `value` is in `column` of the newest row of `table`, byte for byte. */
  | { kind: "stored"; table: "inquiries" | "subscriptions"; column: string; value: string };

export interface HostileCase {
  name: string;
  sender: Sender;
  method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path and query exactly as sent (percent-encodings kept). */
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Sent over a real socket: inject would normalize the path as a URL (`/a/../b` to `/b`). */
  overSocket?: boolean;
  expect: Expectation;
}

const REFUSED = { kind: "refused" } as const;
const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };

/** Strings an attacker tries in every text field; each is valid text for a one-line field. */
export const INJECTIONS = [
  "Robert'); DROP TABLE inquiries;--",
  "' OR '1'='1",
  "1; SELECT pg_sleep(5)",
  `<script>alert("x")</script>`,
  `"><img src=x onerror=alert(1)>`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection is this string's point.
  "{{7*7}} ${7*7} <%= 7*7 %> #{7*7}",
  "__proto__",
  "constructor.prototype.polluted",
  '=HYPERLINK("http://evil.example","x")',
  "../../../../etc/passwd",
];

/** Unusual but valid: the rules accept them in any one-line field, and they must be kept exactly. */
export const VALID_UNUSUAL = [
  "Zoë 🚀 “quoted” 'single' \"double\"",
  "<script>alert(1)</script>",
  "שלום עולם", // right-to-left text, no override characters
  "مرحبا\u200F", // with a right-to-left mark, which the rules keep
  "e\u0301e\u0301 Z\u0308\u0351\u0324a\u0302\u0330lgo", // combining characters
  "👩🏽‍💻 family 👨‍👩‍👧‍👦",
  "Grace\tAnn",
  "NULL",
  "\\x00 \\u0000 %00",
];

/** What breaks a field: each refused by the shared rules (field-rules.ts). */
const BAD_CHARACTERS: [string, string][] = [
  ["NUL", "\u0000"],
  ["CR LF", "\r\nBcc: victim@example.com"],
  ["a lone LF", "\nX-Injected: 1"],
  ["a lone CR", "\r"],
  ["a line separator", "\u2028"],
  ["a right-to-left override", "\u202Egnp.exe"],
  ["an isolate", "\u2067x\u2069"],
  ["a bell", "\u0007"],
  ["DEL", "\u007F"],
  ["a C1 next line", "\u0085"],
];

const FIELDS = Object.keys(INQUIRY_FIELDS) as InquiryField[];
const ONE_LINE = FIELDS.filter((field) => INQUIRY_FIELDS[field].kind === "text");

/** A column of the inquiries table, by field. */
const INQUIRY_COLUMN: Record<InquiryField, string> = {
  firstName: "first_name",
  lastName: "last_name",
  company: "company",
  jobTitle: "job_title",
  email: "email",
  phoneNumber: "phone_number",
  inquiryType: "inquiry_type",
  comments: "comments",
};

const json = (value: unknown) => JSON.stringify(value);
/** `value` with `inserted` in its middle: surrounding spaces and line breaks are trimmed, inner ones are not. */
const amid = (value: string, inserted: string) => {
  const middle = Math.ceil(value.length / 2);
  return `${value.slice(0, middle)}${inserted}${value.slice(middle)}`;
};
const inquiryWith = (field: string, value: unknown) => json({ ...VALID_INQUIRY, [field]: value });
/** Nested `depth` levels deep: `[[[…]]]`. */
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** Bodies no JSON route may accept: not JSON, cut short, or JSON of the wrong shape. */
export const MALFORMED_JSON: [string, string][] = [
  ["an empty body", ""],
  ["a lone brace", "{"],
  ["a truncated object", '{"firstName":"Gra'],
  ["a truncated key", '{"first'],
  ["a trailing comma", '{"a":1,}'],
  ["single quotes", "{'a':1}"],
  ["a bare word", "nul"],
  ["two documents", "{}{}"],
  ["a NUL byte", '{"a":"\u0000"'],
  ["a lone surrogate escape", '{"a":"\\ud800'],
];

/** Well-formed JSON of the wrong shape for any object body. */
export const WRONG_SHAPES: [string, string][] = [
  ["an array", "[]"],
  ["a string", '"hello"'],
  ["a number", "42"],
  ["null", "null"],
  ["true", "true"],
  ["arrays 5,000 deep", nested(5000)],
  ["objects 3,000 deep", nestedObject(3000)],
  ["a __proto__ key", '{"__proto__":{"polluted":true}}'],
  ["a constructor.prototype key", '{"constructor":{"prototype":{"polluted":true}}}'],
];

/** A body bigger than the server's 64 KB limit. */
const OVERSIZED_JSON = json({ comments: "x".repeat(70 * 1024) });

/** Bytes that are not UTF-8: a lone continuation byte, an overlong slash, a truncated sequence. */
export const INVALID_UTF8: [string, Buffer][] = [
  ["a lone 0xFF", Buffer.from([0xff])],
  ["an overlong slash", Buffer.from([0xc0, 0xaf])],
  ["a truncated sequence", Buffer.from([0xe2, 0x82])],
  ["an encoded surrogate", Buffer.from([0xed, 0xa0, 0x80])],
];

/** `body` with `bytes` in place of `slot`. */
function withBytes(body: string, slot: string, bytes: Buffer): Buffer {
  const [before = "", after = ""] = body.split(slot);
  return Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]);
}

/** A JSON inquiry whose first name holds raw bytes that are not UTF-8. */
const inquiryWithBytes = (bytes: Buffer) =>
  withBytes(inquiryWith("firstName", "Gr@@"), "@@", bytes);

const SEND_COMMENT = "/api/v1/send-comment";
const SUBSCRIBE = "/api/v1/subscribe";
const UNSUBSCRIBE_API = "/api/v1/unsubscribe";

/** A different address for every subscribe case: the list refuses one twice. */
let addressCount = 0;
const freshAddress = (local = "hostile") => `${local}.${++addressCount}@example.com`;

/** An unusual but valid new address, and the row it must leave. */
function storedAddress(local: string): { address: string; expect: Expectation } {
  const address = freshAddress(local);
  return {
    address,
    expect: { kind: "stored", table: "subscriptions", column: "email", value: address },
  };
}

function sendCommentCases(): HostileCase[] {
  const visitor = (name: string, payload: string | Buffer, extra: Partial<HostileCase> = {}) => ({
    name: `send-comment: ${name}`,
    sender: "visitor" as const,
    method: "POST" as const,
    url: SEND_COMMENT,
    headers: JSON_TYPE,
    payload,
    expect: REFUSED as Expectation,
    ...extra,
  });
  return [
    ...MALFORMED_JSON.map(([name, body]) => visitor(name, body)),
    ...WRONG_SHAPES.map(([name, body]) => visitor(name, body)),
    visitor("a __proto__ key beside the fields", inquiryWith("__proto__", { admin: true })),
    visitor("an unknown field", inquiryWith("isAdmin", true)),
    visitor("a body over the limit", OVERSIZED_JSON),
    ...INVALID_UTF8.map(([name, bytes]) => visitor(`${name} in a name`, inquiryWithBytes(bytes))),
    ...FIELDS.flatMap((field) =>
      [
        ["a number", 42],
        ["an array", ["a"]],
        ["an object", { a: 1 }],
        ["null", null],
        ["true", true],
      ].map(([type, value]) => visitor(`${String(type)} as ${field}`, inquiryWith(field, value))),
    ),
    ...FIELDS.map((field) =>
      visitor(
        `${field} one character too long`,
        inquiryWith(field, "a".repeat(INQUIRY_FIELDS[field].maxLength + 1)),
      ),
    ),
    ...FIELDS.flatMap((field) =>
      BAD_CHARACTERS.filter(
        // The comments may hold line breaks and direction controls (they may quote any text).
        ([name]) =>
          field !== "comments" || ["NUL", "a bell", "DEL", "a C1 next line"].includes(name),
      ).map(([name, character]) =>
        visitor(`${name} in ${field}`, inquiryWith(field, amid(VALID_INQUIRY[field], character))),
      ),
    ),
    ...INJECTIONS.flatMap((text) => [
      visitor(`an injection as email: ${text}`, inquiryWith("email", text)),
      visitor(`an injection as inquiryType: ${text}`, inquiryWith("inquiryType", text)),
    ]),
    ...[
      ["text/plain", "text/plain"],
      ["XML", "application/xml"],
      ["a form", "application/x-www-form-urlencoded"],
      ["multipart", "multipart/form-data; boundary=x"],
      ["JSON in Latin-1", "application/json; charset=latin1"],
    ].map(([name, type]) =>
      visitor(`sent as ${name}`, json(VALID_INQUIRY), { headers: { "content-type": type ?? "" } }),
    ),
    visitor("no content type", json(VALID_INQUIRY), { headers: {} }),
    visitor("a GET", "", { method: "GET", headers: {}, payload: undefined }),
    visitor("a PUT", json(VALID_INQUIRY), { method: "PUT" }),
    {
      name: "send-comment: without the token",
      sender: "stranger",
      method: "POST",
      url: SEND_COMMENT,
      headers: JSON_TYPE,
      payload: json(VALID_INQUIRY),
      expect: REFUSED,
    },
    // Valid, however odd: kept byte for byte.
    ...ONE_LINE.flatMap((field) =>
      [...VALID_UNUSUAL, ...INJECTIONS]
        .filter((text) => text.length <= INQUIRY_FIELDS[field].maxLength)
        .map((text) =>
          visitor(`stores ${JSON.stringify(text)} as ${field}`, inquiryWith(field, text), {
            expect: {
              kind: "stored",
              table: "inquiries",
              column: INQUIRY_COLUMN[field],
              value: text,
            },
          }),
        ),
    ),
    ...["One\r\nTwo\nThree", "quoted \u202Etext\u202C", "Zalgo Z\u0351\u0324 and <b>bold</b>"].map(
      (text) =>
        visitor(`stores ${JSON.stringify(text)} as comments`, inquiryWith("comments", text), {
          expect: { kind: "stored", table: "inquiries", column: "comments", value: text },
        }),
    ),
  ];
}

function subscribeCases(): HostileCase[] {
  const visitor = (name: string, query: string, extra: Partial<HostileCase> = {}): HostileCase => ({
    name: `subscribe: ${name}`,
    sender: "visitor",
    method: "POST",
    url: `${SUBSCRIBE}${query}`,
    expect: REFUSED,
    ...extra,
  });
  const withAddress = (address: string) => `?emailId=${encodeURIComponent(address)}`;
  return [
    visitor("no address", ""),
    visitor("an empty address", "?emailId="),
    visitor("two addresses", `?emailId=${freshAddress()}&emailId=${freshAddress()}`),
    visitor("an address as an array key", `?emailId[]=${freshAddress()}`),
    visitor("an address as an object", `?emailId[a]=${freshAddress()}`),
    visitor("a __proto__ parameter", `?__proto__[emailId]=${freshAddress()}`),
    visitor("an invalid percent-encoding", "?emailId=a%ZZ@example.com"),
    visitor("a lone percent", "?emailId=%"),
    visitor("%FF in the address", "?emailId=jane%FF@example.com"),
    visitor("an overlong slash in the address", "?emailId=jane%C0%AF@example.com"),
    visitor("an address over 254 characters", withAddress(`${"a".repeat(250)}@example.com`)),
    ...BAD_CHARACTERS.map(([name, character]) =>
      visitor(`${name} in the address`, withAddress(amid("jane@example.com", character))),
    ),
    ...INJECTIONS.map((text) => visitor(`an injection: ${text}`, withAddress(text))),
    visitor("a malformed JSON body", withAddress(freshAddress()), {
      headers: JSON_TYPE,
      payload: "{",
    }),
    visitor("without the token", withAddress(freshAddress()), { sender: "stranger" }),
    ...["o'brien+tag", "first.last_x-y"].map((local) => {
      const { address, expect } = storedAddress(local);
      return visitor(`stores ${address}`, withAddress(address), { expect });
    }),
  ];
}

/** Query strings the content lists and pages meet: repeated, odd, encoded badly. */
export const ODD_QUERIES = [
  "?x=1&x=2",
  "?x=%00",
  "?x=%FF%FE",
  "?x=%E2%80%AE",
  "?x=%",
  "?x[__proto__][polluted]=1",
  "?__proto__=1&constructor=2",
  `?x=${encodeURIComponent("<script>alert(1)</script>")}`,
  `?x=${encodeURIComponent("\r\nSet-Cookie: a=b")}`,
  `?x=${"a".repeat(6000)}`,
];

function listCases(): HostileCase[] {
  const get = (name: string, url: string, expect: Expectation): HostileCase => ({
    name: `lists: ${name}`,
    sender: "stranger",
    method: "GET",
    url,
    expect,
  });
  return [
    ...["/api/v1/teams", "/api/v1/case-studies", "/api/v1/xsrf"].flatMap((path) =>
      ODD_QUERIES.map((query) =>
        get(`${path}${query.slice(0, 30)}`, `${path}${query}`, { kind: "served", status: 200 }),
      ),
    ),
    ...[
      "?category=capabilities&category=ethos",
      "?category[]=capabilities",
      "?category=%00",
      "?category=CAPABILITIES",
      "?category=__proto__",
      "?category=constructor",
      `?category=${encodeURIComponent("ethos' OR 1=1--")}`,
      "?category=%FF",
      "",
    ].map((query) => get(`items${query}`, `/api/v1/items${query}`, REFUSED)),
  ];
}

const SIGNATURE = "a".repeat(43);

/** Unsubscribe tokens that name no subscription, or are not tokens at all. */
export const BAD_TOKENS = [
  "",
  "abc",
  `1.${SIGNATURE}`,
  `0.${SIGNATURE}`,
  `-1.${SIGNATURE}`,
  `2147483648.${SIGNATURE}`,
  `999999999999999.${SIGNATURE}`,
  `9999999999999999999999.${SIGNATURE}`,
  `1e3.${SIGNATURE}`,
  `1.${SIGNATURE}\u0000`,
  `1.${"é".repeat(43)}`,
  `1.${SIGNATURE}\r\nX: y`,
];

function unsubscribeCases(): HostileCase[] {
  const encoded = (token: string) => `token=${encodeURIComponent(token)}`;
  return [
    ...BAD_TOKENS.map(
      (token): HostileCase => ({
        name: `unsubscribe page call: ${JSON.stringify(token).slice(0, 40)}`,
        sender: "stranger",
        method: "GET",
        url: `${UNSUBSCRIBE_API}?${encoded(token)}`,
        expect: REFUSED,
      }),
    ),
    ...BAD_TOKENS.map(
      (token): HostileCase => ({
        name: `unsubscribe confirm: ${JSON.stringify(token).slice(0, 40)}`,
        sender: "visitor",
        method: "POST",
        url: UNSUBSCRIBE_API,
        headers: JSON_TYPE,
        payload: json({ token }),
        expect: REFUSED,
      }),
    ),
    ...BAD_TOKENS.map(
      (token): HostileCase => ({
        name: `one-click: ${JSON.stringify(token).slice(0, 40)}`,
        sender: "stranger",
        method: "POST",
        url: `/unsubscribe?${encoded(token)}`,
        headers: FORM_TYPE,
        payload: "List-Unsubscribe=One-Click",
        expect: REFUSED,
      }),
    ),
    ...[
      ["two tokens", `?token=${`1.${SIGNATURE}`}&token=${`2.${SIGNATURE}`}`],
      ["%FF in the token", `?token=1.${SIGNATURE}%FF`],
      ["no token", ""],
    ].flatMap(([name, query]) => [
      {
        name: `unsubscribe page call: ${name}`,
        sender: "stranger" as const,
        method: "GET" as const,
        url: `${UNSUBSCRIBE_API}${query}`,
        expect: REFUSED,
      },
      {
        name: `one-click: ${name}`,
        sender: "stranger" as const,
        method: "POST" as const,
        url: `/unsubscribe${query}`,
        headers: FORM_TYPE,
        payload: "List-Unsubscribe=One-Click",
        expect: REFUSED,
      },
    ]),
    ...[...MALFORMED_JSON, ...WRONG_SHAPES].map(
      ([name, body]): HostileCase => ({
        name: `unsubscribe confirm: ${name}`,
        sender: "visitor",
        method: "POST",
        url: UNSUBSCRIBE_API,
        headers: JSON_TYPE,
        payload: body,
        expect: REFUSED,
      }),
    ),
    ...[
      ["a malformed form body", FORM_TYPE, "%ZZ=%"],
      ["a JSON body", JSON_TYPE, "{"],
      ["an XML body", { "content-type": "application/xml" }, "<a/>"],
    ].map(
      ([name, headers, payload]): HostileCase => ({
        name: `one-click: ${String(name)}`,
        sender: "stranger",
        method: "POST",
        url: `/unsubscribe?token=${`1.${SIGNATURE}`}`,
        headers: headers as Record<string, string>,
        payload: payload as string,
        expect: REFUSED,
      }),
    ),
  ];
}

/** A urlencoded form body; the form's token is filled in at send time (see FORM_TOKEN_SLOT). */
export const FORM_TOKEN_SLOT = "%%FORM_TOKEN%%";
const formBody = (fields: Record<string, string>) =>
  new URLSearchParams({ [FORM_TOKEN_FIELD]: FORM_TOKEN_SLOT, ...fields }).toString();

function formCases(): HostileCase[] {
  const form = (
    name: string,
    url: string,
    payload: string | Buffer,
    extra: Partial<HostileCase> = {},
  ): HostileCase => ({
    name: `form ${url}: ${name}`,
    sender: "form",
    method: "POST",
    url,
    headers: FORM_TYPE,
    payload,
    expect: REFUSED,
    ...extra,
  });
  const inquiry = (field: string, value: string) => formBody({ ...VALID_INQUIRY, [field]: value });
  const contact = "/contact-us";
  const subscribe = "/subscribe";
  return [
    ...FIELDS.flatMap((field) =>
      BAD_CHARACTERS.filter(
        ([name]) =>
          field !== "comments" || ["NUL", "a bell", "DEL", "a C1 next line"].includes(name),
      )
        .slice(0, 4)
        .map(([name, character]) =>
          form(
            `${name} in ${field}`,
            contact,
            inquiry(field, amid(VALID_INQUIRY[field], character)),
          ),
        ),
    ),
    ...INVALID_UTF8.map(([name, bytes]) =>
      form(`${name} raw in a name`, contact, withBytes(inquiry("lastName", "@@"), "%40%40", bytes)),
    ),
    form("%FF in a name", contact, inquiry("lastName", "@@").replace("%40%40", "Gr%FFce")),
    form(
      "an overlong slash in a name",
      contact,
      inquiry("lastName", "@@").replace("%40%40", "%C0%AF"),
    ),
    form(
      "an invalid percent-encoding",
      contact,
      inquiry("lastName", "@@").replace("%40%40", "%ZZ%"),
    ),
    form(
      "every field twice",
      contact,
      `${inquiry("company", "x")}&${new URLSearchParams(VALID_INQUIRY as unknown as Record<string, string>)}`,
    ),
    form("a name twice", contact, `${inquiry("company", "x")}&lastName=Other`),
    ...[
      ["a field as an array key", "firstName[]=x"],
      ["a __proto__ field", "__proto__[polluted]=1"],
      ["a constructor field", "constructor[prototype][polluted]=1"],
    ].map(([name, extra]) =>
      form(
        `${name}, which the form ignores`,
        contact,
        `${inquiry("lastName", `Ignored ${name}`)}&${extra}`,
        {
          expect: {
            kind: "stored",
            table: "inquiries",
            column: "last_name",
            value: `Ignored ${name}`,
          },
        },
      ),
    ),
    form(
      "no token",
      contact,
      new URLSearchParams(VALID_INQUIRY as unknown as Record<string, string>).toString(),
    ),
    form(
      "a forged token",
      contact,
      inquiry("company", "x").replace(encodeURIComponent(FORM_TOKEN_SLOT), "forged"),
    ),
    form("sent as JSON", contact, json(VALID_INQUIRY), { headers: JSON_TYPE }),
    form("sent as text", contact, "firstName=x", { headers: { "content-type": "text/plain" } }),
    form("a body over the limit", contact, formBody({ comments: "x".repeat(60 * 1024) })),
    form("an empty body", contact, ""),
    form("a NUL in the address", subscribe, formBody({ emailId: "jane\u0000@example.com" })),
    form(
      "CR LF in the address",
      subscribe,
      formBody({ emailId: "jane@example.com\r\nBcc: x@example.com" }),
    ),
    form(
      "two addresses",
      subscribe,
      `${formBody({ emailId: freshAddress() })}&emailId=${freshAddress()}`,
    ),
    form("%FF in the address", subscribe, `${formBody({})}&emailId=jane%FF@example.com`),
    form("an injection as the address", subscribe, formBody({ emailId: "' OR 1=1--@example.com" })),
    form("sent as JSON", subscribe, json({ emailId: freshAddress() }), { headers: JSON_TYPE }),
    ...[`<script>alert(1)</script>`, "שלום עולם", "e\u0301e\u0301 🚀 “q”"].map((text) =>
      form(`stores ${JSON.stringify(text)} as lastName`, contact, inquiry("lastName", text), {
        expect: { kind: "stored", table: "inquiries", column: "last_name", value: text },
      }),
    ),
    (() => {
      const { address, expect } = storedAddress("o'neil+form");
      return form(`stores ${address}`, subscribe, formBody({ emailId: address }), { expect });
    })(),
  ];
}

/** Paths that are not pages: traversal in its spellings, encoded slashes, NUL, odd characters. */
export const ODD_PATHS = [
  "/../../etc/passwd",
  "/%2e%2e/%2e%2e/etc/passwd",
  "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
  "/..%2f..%2fetc%2fpasswd",
  "/..%5c..%5cetc%5cpasswd",
  "/..\\..\\etc\\passwd",
  "/%252e%252e/%252e%252e/etc/passwd",
  "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
  "/weare%00.html",
  "/weare%00",
  "/we%0d%0aare",
  "/%0d%0aSet-Cookie:%20a=b",
  "/%FF%FE",
  "/%E2%80%AEweare",
  "/weare/%2e%2e/contact-us",
  "//evil.example/",
  "/\\evil.example",
  "/weserve/case-studies/..%2f..%2fetc%2fpasswd",
  "/weserve/case-studies/%00",
  "/weserve/case-studies/%3Cscript%3E",
  "/weserve/case-studies/__proto__",
  "/api",
  "/api/v1",
  "/api/v2/teams",
  "/api/v1/../admin/session",
  "/api/v1/%2e%2e/admin/session",
  "/api/admin/..%2f..%2fetc%2fpasswd",
  "/api/v1/teams%00",
  `/${"a".repeat(8000)}`,
  "/%",
  "/a%2",
];

function pageCases(): HostileCase[] {
  const get = (url: string, expect: Expectation): HostileCase => ({
    name: `page GET ${url.slice(0, 60)}`,
    sender: "stranger",
    method: "GET",
    url,
    expect,
  });
  return [
    ...PAGE_PATHS.flatMap((path) =>
      ODD_QUERIES.map((query) =>
        // The confirmation page without a token opens on its refusal.
        get(`${path}${query}`, {
          kind: "served",
          status: path === CONFIRM_SUBSCRIPTION_PATH ? 404 : 200,
        }),
      ),
    ),
    ...ODD_PATHS.map((path) => ({ ...get(path, REFUSED), overSocket: true })),
    ...ODD_PATHS.slice(0, 8).map(
      (path): HostileCase => ({
        name: `POST ${path}`,
        sender: "visitor",
        method: "POST",
        url: path,
        headers: JSON_TYPE,
        payload: "{}",
        expect: REFUSED,
      }),
    ),
    ...["/robots.txt", "/sitemap.xml"].flatMap((path) =>
      ODD_QUERIES.slice(0, 5).map((query) =>
        get(`${path}${query}`, { kind: "served", status: 200 }),
      ),
    ),
    ...["/healthz", "/readyz"].flatMap((path) => [
      ...ODD_QUERIES.slice(0, 5).map((query) =>
        get(`${path}${query}`, { kind: "served", status: 200 }),
      ),
      {
        name: `POST ${path}`,
        sender: "visitor" as const,
        method: "POST" as const,
        url: path,
        headers: JSON_TYPE,
        payload: "{",
        expect: REFUSED,
      },
    ]),
  ];
}

/** A file the static roots must never give away: it sits beside them, one folder up. */
export const OUTSIDE_FILE = "outside-secret.txt";

/** Traversal towards OUTSIDE_FILE from under `prefix` (a served folder), in every spelling. */
export function traversalPaths(prefix: string): string[] {
  return [
    `${prefix}../${OUTSIDE_FILE}`,
    `${prefix}../../${OUTSIDE_FILE}`,
    `${prefix}%2e%2e/${OUTSIDE_FILE}`,
    `${prefix}%2e%2e%2f${OUTSIDE_FILE}`,
    `${prefix}..%2f${OUTSIDE_FILE}`,
    `${prefix}..%5c${OUTSIDE_FILE}`,
    `${prefix}..\\${OUTSIDE_FILE}`,
    `${prefix}%252e%252e%252f${OUTSIDE_FILE}`,
    `${prefix}%c0%ae%c0%ae/${OUTSIDE_FILE}`,
    `${prefix}app.js%00.html`,
    `${prefix}app.js%00`,
    `${prefix}.%2e/${OUTSIDE_FILE}`,
    `${prefix}%2F..%2F${OUTSIDE_FILE}`,
  ];
}

/** The static folders the server serves files from, each with one file in it. */
export const STATIC_PREFIXES = ["/assets/", "/images/pictures/", "/images/items/"];

/** The console's files: any path under /admin is its one page (the app routes in the browser). */
export const CONSOLE_ASSETS = "/admin/assets/";

function staticCases(): HostileCase[] {
  const get = (url: string, expect: Expectation): HostileCase => ({
    name: `static ${url}`,
    sender: "stranger",
    method: "GET",
    url,
    overSocket: true,
    expect,
  });
  return [
    ...STATIC_PREFIXES.flatMap((prefix) => traversalPaths(prefix).map((url) => get(url, REFUSED))),
    // The console's page or a refusal, never a file from outside its folder.
    ...traversalPaths(CONSOLE_ASSETS).map((url) => get(url, { kind: "answered" })),
  ];
}

/** Console ids that name no row: not numbers, out of range, encoded oddly. */
export const BAD_IDS = [
  "abc",
  "-1",
  "0",
  "1.5",
  "99999999999999999999",
  "%00",
  "%FF",
  "1%20OR%201=1",
  "0x10",
  "1e3",
  "%2B1",
  "%201",
];

function consoleCases(): HostileCase[] {
  const owner = (
    name: string,
    method: HostileCase["method"],
    url: string,
    extra: Partial<HostileCase> = {},
  ): HostileCase => ({
    name: `console ${method} ${url}: ${name}`,
    sender: "owner",
    method,
    url,
    expect: REFUSED,
    ...extra,
  });
  const signIn = "/api/admin/session";
  const reset = "/api/admin/password-reset";
  const setPassword = "/api/admin/password";
  const anonymous = (name: string, url: string, payload: string): HostileCase => ({
    name: `console ${url}: ${name}`,
    sender: "visitor",
    method: "POST",
    url,
    headers: JSON_TYPE,
    payload,
    expect: REFUSED,
  });
  return [
    ...[signIn, reset, setPassword].flatMap((url) =>
      [...MALFORMED_JSON, ...WRONG_SHAPES].map(([name, body]) => anonymous(name, url, body)),
    ),
    ...[
      ["NUL in the address", { email: "a\u0000@firm.example", password: "x" }],
      ["CR LF in the address", { email: "a@firm.example\r\nBcc: b@x.example", password: "x" }],
      ["an injection as address", { email: "' OR 1=1--", password: "x" }],
      ["an injection as password", { email: "nobody@firm.example", password: "' OR '1'='1" }],
      ["NUL in the password", { email: "nobody@firm.example", password: "a\u0000b" }],
      ["a number as password", { email: "nobody@firm.example", password: 1 }],
      ["an array as address", { email: ["a@firm.example"], password: "x" }],
      ["a code with NUL", { email: "nobody@firm.example", password: "x", code: "12\u00003456" }],
      ["a password over the limit", { email: "nobody@firm.example", password: "p".repeat(300) }],
    ].map(([name, body]) => anonymous(String(name), signIn, json(body))),
    ...[
      ["NUL in the address", { email: "a\u0000@firm.example" }],
      ["an injection", { email: "<script>@firm.example" }],
    ].map(([name, body]) => anonymous(String(name), reset, json(body))),
    ...[
      ["a short token", { token: "abc", password: "a long enough password" }],
      [
        "NUL in the token",
        { token: `${"a".repeat(42)}\u0000`, password: "a long enough password" },
      ],
      ["a token of the right form", { token: SIGNATURE, password: "a long enough password" }],
      ["a __proto__ token", { token: "__proto__", password: "a long enough password" }],
    ].map(([name, body]) => anonymous(String(name), setPassword, json(body))),
    ...[
      "?status=new&status=closed",
      "?page=-1",
      "?page=abc",
      "?page=99999999999999999999",
      "?q=%00",
      "?q=%FF",
      `?q=${encodeURIComponent("' OR 1=1--")}`,
      "?sort=__proto__",
      "?from=not-a-date",
      `?q=${"a".repeat(5000)}`,
    ].flatMap((query) =>
      [
        "/api/admin/inquiries",
        "/api/admin/subscribers",
        "/api/admin/audit",
        "/api/admin/inquiries/export.csv",
      ].map(
        (path): HostileCase =>
          owner(`query ${query.slice(0, 30)}`, "GET", `${path}${query}`, {
            expect: { kind: "answered" },
          }),
      ),
    ),
    ...[
      ["no file", "multipart/form-data; boundary=x", "--x--\r\n"],
      [
        "a malformed multipart body",
        "multipart/form-data; boundary=x",
        "--x\r\nContent-Disposition: form-data\r\n",
      ],
      ["JSON", "application/json", "{}"],
      ["no boundary", "multipart/form-data", "abc"],
    ].map(([name, type, payload]) =>
      owner(String(name), "POST", "/api/admin/media?kind=portrait", {
        headers: { "content-type": String(type) },
        payload: String(payload),
      }),
    ),
    owner("an unknown kind", "POST", "/api/admin/media?kind=__proto__", {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      payload: "--x--\r\n",
    }),
    // The searches are text like any other: each refused character is a 400 naming its parameter.
    ...[
      ["/api/admin/audit", "q"],
      ["/api/admin/audit", "action"],
      ["/api/admin/inquiries", "q"],
      ["/api/admin/inquiries/export.csv", "q"],
      ["/api/admin/subscribers", "q"],
      ["/api/admin/subscribers/export.csv", "q"],
    ].flatMap(([path, parameter = ""]) =>
      BAD_CHARACTERS.map(([name, character]) =>
        owner(
          `${name} in ${parameter}`,
          "GET",
          `${path}?${new URLSearchParams({ [parameter]: amid("plain words", character) })}`,
          { expect: { kind: "invalid", field: parameter } },
        ),
      ),
    ),
  ];
}

/** Numbers no id can be: beyond an integer column (PostgreSQL fails the whole query on one, SQLite finds no row), or below 1. */
export const OUT_OF_RANGE_IDS = [2_147_483_648, 4_294_967_296, -1];

/** A console write's body: a valid one, and which of its fields are several lines or secrets. */
export interface ConsoleWrite {
  /** A body each of whose values is valid on its own (null: the route takes none). */
  body: Record<string, unknown> | null;
  /** Text of several lines: line breaks are its own, so only the other characters are refused. */
  multiline?: readonly string[];
  /**
   * Passwords and codes: hashed or compared, never stored nor shown, so any
   * character may be part of one; the suite sends them nothing but shapes.
   */
  secret?: readonly string[];
}

/** A valid value for each field the console's bodies name; any other text field takes "Plain words". */
const CONSOLE_VALUES: Record<string, string> = {
  email: "someone@firm.example",
  password: "a long enough password",
  currentPassword: "a long enough password",
  newPassword: "another long enough password",
  confirmation: "a long enough password",
  code: "123456",
  token: SIGNATURE,
  status: "new",
  role: "viewer",
  at: "2099-01-01T00:00:00.000Z",
  publishAt: "2099-01-01T00:00:00.000Z",
  slug: "a-hostile-slug",
  imagePath: "a.webp",
  contactEmail: "hello@firm.example",
  networkUrl: "https://www.linkedin.com/company/firm",
};
const consoleValue = (field: string) => CONSOLE_VALUES[field] ?? "Plain words";
const valuesOf = (fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, consoleValue(field)]));
/** The fields a form shows as a text area: text of several lines. */
const multilineOf = (fields: readonly { name: string; rows?: number }[]) =>
  fields.filter((field) => field.rows).map((field) => field.name);

function contentWrites(): Record<string, ConsoleWrite> {
  const writes: Record<string, ConsoleWrite> = {};
  for (const list of CONTENT_LISTS) {
    const spec = LIST_SPECS[list];
    const fields = valuesOf([
      ...spec.fields.map((field) => field.name),
      ...(spec.image ? ["imagePath"] : []),
    ]);
    const multiline = multilineOf(spec.fields);
    writes[`POST ${CONTENT_PATHS.list(list)}`] = { body: { fields, hidden: false }, multiline };
    writes[`PUT ${CONTENT_PATHS.entry(list, ":id")}`] = {
      body: { fields, hidden: false, version: 1 },
      multiline,
    };
    writes[`PUT ${CONTENT_PATHS.order(list)}`] = { body: { orderVersion: 1, ids: [1, 2] } };
    writes[`PUT ${CONTENT_PATHS.visibility(list, ":id")}`] = {
      body: { hidden: true, version: 1 },
    };
    writes[`POST ${CONTENT_PATHS.restore(list, ":id", ":version")}`] = { body: { version: 1 } };
    writes[`PUT ${DRAFT_PATHS.draft(list, ":id")}`] = {
      body: { fields, baseVersion: 1 },
      multiline,
    };
    writes[`DELETE ${DRAFT_PATHS.draft(list, ":id")}`] = { body: null };
    writes[`POST ${DRAFT_PATHS.publish(list, ":id")}`] = { body: null };
    writes[`PUT ${DRAFT_PATHS.schedule(list, ":id")}`] = { body: valuesOf(["publishAt"]) };
    writes[`DELETE ${DRAFT_PATHS.schedule(list, ":id")}`] = { body: null };
    writes[`POST ${DRAFT_PATHS.preview(list, ":id")}`] = { body: null };
  }
  writes[`PUT ${SITE_FACTS_PATHS.facts}`] = {
    body: { fields: valuesOf(SITE_FACT_FIELDS.map((field) => field.name)), version: 1 },
    multiline: multilineOf(SITE_FACT_FIELDS),
  };
  writes[`POST ${SITE_FACTS_PATHS.restore(":version")}`] = { body: { version: 1 } };
  return writes;
}

/**
 * Every console write, by "METHOD path" as the server registers it. The
 * suite checks this list against the routes the server has: a write added
 * without its entry here fails the suite rather than escape it.
 */
export const CONSOLE_WRITES: Record<string, ConsoleWrite> = {
  "POST /api/admin/session": {
    body: valuesOf(["email", "password", "code"]),
    secret: ["password"],
  },
  "DELETE /api/admin/session": { body: null },
  "DELETE /api/admin/sessions": { body: null },
  "POST /api/admin/password-reset": { body: valuesOf(["email"]) },
  "POST /api/admin/password": { body: valuesOf(["token", "password"]), secret: ["password"] },
  "PUT /api/admin/inquiries/:id/status": { body: valuesOf(["status"]) },
  "PUT /api/admin/inquiries/:id/assignee": { body: { assigneeId: 1 } },
  "POST /api/admin/inquiries/:id/notes": { body: valuesOf(["body"]), multiline: ["body"] },
  "DELETE /api/admin/inquiries/:id": { body: valuesOf(["email"]) },
  "POST /api/admin/turned-away/:id/release": { body: null },
  "DELETE /api/admin/turned-away/:id": { body: null },
  "PUT /api/admin/subscribers/:id/person": {
    body: {
      ...valuesOf(["firstName", "lastName"]),
      tags: ["Plain words"],
      fields: [{ name: "Plain words", value: "Plain words" }],
    },
  },
  "POST /api/admin/subscribers/:id/unsubscribe": { body: null },
  "DELETE /api/admin/subscribers/:id": { body: valuesOf(["email"]) },
  // The import's file is multipart and its choices are in the query: no JSON body to vary.
  "POST /api/admin/subscribers/import/preview": { body: null },
  "POST /api/admin/subscribers/import/dry-run": { body: null },
  "POST /api/admin/subscribers/import": { body: null },
  "DELETE /api/admin/suppressions/:id": { body: null },
  "POST /api/admin/newsletter": {
    body: valuesOf(["title", "slug", "summary", "body"]),
    multiline: ["summary", "body"],
  },
  "PUT /api/admin/newsletter/:id": {
    body: { ...valuesOf(["title", "slug", "summary", "body"]), version: 1 },
    multiline: ["summary", "body"],
  },
  "DELETE /api/admin/newsletter/:id": { body: null },
  "POST /api/admin/newsletter/:id/test": { body: null },
  "POST /api/admin/newsletter/:id/send": { body: valuesOf(["at"]) },
  "POST /api/admin/newsletter/:id/unschedule": { body: null },
  "POST /api/admin/newsletter/:id/pause": { body: null },
  "POST /api/admin/newsletter/:id/resume": { body: null },
  "POST /api/admin/newsletter/:id/cancel": { body: null },
  "PUT /api/admin/newsletter/:id/archive": {
    body: { ...valuesOf(["title", "summary", "body"]), version: 1 },
    multiline: ["summary", "body"],
  },
  "POST /api/admin/newsletter/:id/archive/versions/:version/restore": { body: { version: 1 } },
  "POST /api/admin/newsletter/:id/archive/withdraw": { body: null },
  "POST /api/admin/newsletter/:id/archive/put-back": { body: null },
  ...contentWrites(),
  // A picture: multipart, its cases in consoleCases().
  "POST /api/admin/media": { body: null },
  "PUT /api/admin/account/password": {
    body: valuesOf(["currentPassword", "newPassword"]),
    secret: ["currentPassword", "newPassword"],
  },
  "POST /api/admin/account/second-factor": { body: null },
  // The code is compared with the authenticator's, spaces typed in it removed.
  "POST /api/admin/account/second-factor/confirm": { body: valuesOf(["code"]), secret: ["code"] },
  "DELETE /api/admin/account/second-factor": {
    body: valuesOf(["confirmation"]),
    secret: ["confirmation"],
  },
  "POST /api/admin/people": { body: { ...valuesOf(["email", "name"]), role: "viewer" } },
  "POST /api/admin/people/:id/invitation": { body: null },
  "PATCH /api/admin/people/:id": { body: valuesOf(["role"]) },
  "DELETE /api/admin/people/:id": { body: null },
  "PUT /api/admin/settings/second-factor": { body: { required: false } },
  "PUT /api/admin/settings/mail": {
    body: {
      version: 0,
      senderName: "Plain words",
      senderAddress: "site@firm.example",
      inquiryTo: ["inbox@firm.example"],
      newsletterRate: 10,
      doubleOptIn: false,
      welcomeText: "Plain words",
    },
    multiline: ["welcomeText"],
  },
  "POST /api/admin/settings/mail/test": { body: {} },
  "POST /api/admin/webhooks": {
    body: {
      name: "Plain words",
      url: "https://hooks.firm.example/site",
      events: ["inquiry.received"],
      format: "json",
      enabled: true,
    },
  },
  "PUT /api/admin/webhooks/:id": {
    body: {
      name: "Plain words",
      url: "https://hooks.firm.example/site",
      events: ["inquiry.received"],
      format: "slack",
      enabled: false,
    },
  },
  "DELETE /api/admin/webhooks/:id": { body: null },
  "POST /api/admin/webhooks/:id/secret/rotate": { body: null },
  "POST /api/admin/webhooks/:id/test": { body: null },
  "POST /api/admin/backups": { body: null },
  "POST /api/admin/subscribers/topics": { body: valuesOf(["name"]) },
  "DELETE /api/admin/subscribers/topics/:id": { body: null },
  "POST /api/admin/audience/goals": { body: { path: "/weserve" } },
  "DELETE /api/admin/audience/goals/:id": { body: null },
};

/** The console's writes among `routes` that CONSOLE_WRITES does not list, and its entries no route has. */
export function unlistedConsoleWrites(routes: readonly { method: string; url: string }[]): {
  unlisted: string[];
  stale: string[];
} {
  const writes = routes
    .filter((route) => route.method !== "GET")
    .map((route) => `${route.method} ${route.url}`);
  return {
    unlisted: writes.filter((write) => !(write in CONSOLE_WRITES)),
    stale: Object.keys(CONSOLE_WRITES).filter((write) => !writes.includes(write)),
  };
}

/** Line breaks a field of several lines keeps; every other bad character is refused in any field. */
const LINE_BREAK_CASES = ["CR LF", "a lone LF", "a lone CR"];

/** A text field's value broken by each bad character, or an id field's by each id out of range. */
function brokenValues(
  field: string,
  value: unknown,
  write: ConsoleWrite,
): [name: string, broken: unknown][] {
  if (write.secret?.includes(field)) return [];
  if (typeof value === "string") {
    const multiline = write.multiline?.includes(field) ?? false;
    return BAD_CHARACTERS.filter(([name]) => !multiline || !LINE_BREAK_CASES.includes(name)).map(
      ([name, character]) => [name, amid(value, character)],
    );
  }
  if (typeof value === "number") return OUT_OF_RANGE_IDS.map((id) => [`id ${id}`, id]);
  if (Array.isArray(value)) return OUT_OF_RANGE_IDS.map((id) => [`id ${id}`, [...value, id]]);
  return [];
}

/**
 * The console's field cases for one write: each text field of its body with
 * each character the shared rules refuse (field-rules.ts), each id with a
 * number no row can have, each path parameter out of range. Each is a 400
 * naming its field, and nothing is written.
 */
function consoleFieldCases(method: string, url: string, write: ConsoleWrite): HostileCase[] {
  const cases: HostileCase[] = [];
  const invalid = (name: string, path: string, field: string, body?: unknown): HostileCase => ({
    name: `console ${method} ${path}: ${name} in ${field}`,
    sender: "owner",
    method: method as HostileCase["method"],
    url: path,
    ...(body === undefined ? {} : { headers: JSON_TYPE, payload: json(body) }),
    expect: { kind: "invalid", field },
  });
  const params = url.match(/:[A-Za-z]+/g) ?? [];
  const withIds = url.replace(/:[A-Za-z]+/g, "999999");
  const body = write.body ?? undefined;
  for (const param of params) {
    for (const id of OUT_OF_RANGE_IDS) {
      const path = url.replace(param, String(id)).replace(/:[A-Za-z]+/g, "999999");
      cases.push(invalid(`id ${id}`, path, param.slice(1), body));
    }
  }
  if (!write.body) return cases;
  for (const [key, value] of Object.entries(write.body)) {
    // A record's fields are one object; each is named by its own name.
    const nested =
      key === "fields" && typeof value === "object" && value ? Object.entries(value) : null;
    for (const [field, fieldValue] of nested ?? [[key, value]]) {
      for (const [name, broken] of brokenValues(field, fieldValue, write)) {
        const sent = nested
          ? { ...write.body, fields: { ...(value as object), [field]: broken } }
          : { ...write.body, [field]: broken };
        cases.push(invalid(name, withIds, field, sent));
      }
    }
  }
  return cases;
}

/**
 * The console's routes meet these for every write (the route list is the
 * server's own, app.consoleRoutes): bodies no route accepts, ids that name
 * no row in every id parameter, and each field of CONSOLE_WRITES's bodies
 * broken as consoleFieldCases says.
 */
export function consoleRouteCases(
  routes: readonly { method: string; url: string }[],
): HostileCase[] {
  const cases: HostileCase[] = [];
  const refused = (name: string, method: string, url: string, extra: Partial<HostileCase> = {}) =>
    cases.push({
      name: `console ${method} ${url}: ${name}`,
      sender: "owner",
      method: method as HostileCase["method"],
      url,
      expect: REFUSED,
      ...extra,
    });
  for (const route of routes) {
    // Signing out would end the owner's session; those routes take no body.
    if (route.method === "DELETE" && /\/sessions?$/.test(route.url)) continue;
    const withIds = route.url.replace(/:[A-Za-z]+/g, "999999");
    if (route.url.includes(":")) {
      for (const id of BAD_IDS) {
        refused(`id ${id}`, route.method, route.url.replace(/:[A-Za-z]+/g, id), {
          ...(route.method === "GET" ? {} : { headers: JSON_TYPE, payload: "{}" }),
        });
      }
    }
    const write = CONSOLE_WRITES[`${route.method} ${route.url}`];
    cases.push(...consoleFieldCases(route.method, route.url, write ?? { body: null }));
    if (route.method === "GET" || route.url === "/api/admin/media") continue;
    for (const [name, body] of [MALFORMED_JSON[1], MALFORMED_JSON[2], WRONG_SHAPES[7]] as [
      string,
      string,
    ][]) {
      refused(name, route.method, withIds, { headers: JSON_TYPE, payload: body });
    }
    // A route that takes no body (starting a second factor's set-up) may ignore one: never a failure.
    refused("text/plain", route.method, withIds, {
      headers: { "content-type": "text/plain" },
      payload: "x",
      expect: { kind: "answered" },
    });
    refused("a body over the limit", route.method, withIds, {
      headers: JSON_TYPE,
      payload: OVERSIZED_JSON,
    });
  }
  return cases;
}

/** Every case that needs no running server to be named. */
export function hostileCases(): HostileCase[] {
  return [
    ...sendCommentCases(),
    ...subscribeCases(),
    ...listCases(),
    ...unsubscribeCases(),
    ...formCases(),
    ...pageCases(),
    ...staticCases(),
    ...consoleCases(),
  ];
}
