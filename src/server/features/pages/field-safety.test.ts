/**
 * Characters no field may hold: control characters such as NUL
 * anywhere (PostgreSQL cannot store NUL and answered 500), line breaks outside
 * the comments (a name of two lines could forge a line of the notification),
 * and text-direction controls in the one-line fields (they make a name read
 * as another). The browser form's check, the form posted without JavaScript
 * and the API refuse each in the same words and store nothing, on both
 * engines; an unsubscribe token naming an id beyond the id column is an
 * invalid link like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { characterReason, checkField, FIELD_REASONS } from "../../../shared/field-rules.ts";
import {
  checkInquiry,
  INQUIRY_FIELDS,
  type InquiryField,
  type InquiryValues,
} from "../../../shared/inquiry.ts";
import { SUBSCRIBE_EMAIL_RULE } from "../../../shared/subscription.ts";
import { INVALID_LINK_MESSAGE } from "../subscriptions/index.ts";
import { formService } from "./form-service.ts";

const FIELDS = Object.keys(INQUIRY_FIELDS) as InquiryField[];
/** The free-text fields on one line: the names, company, job title and phone. */
const ONE_LINE_TEXT_FIELDS = FIELDS.filter((field) => INQUIRY_FIELDS[field].kind === "text");

/** A refused value: what it holds, its field, the value, the reason every check gives. */
type Refusal = [string, InquiryField, string, string];

/** The field's valid value with `character` in its middle. */
function refusal(name: string, field: InquiryField, character: string, reason: string): Refusal {
  const value = VALID_INQUIRY[field];
  const middle = Math.floor(value.length / 2);
  return [name, field, `${value.slice(0, middle)}${character}${value.slice(middle)}`, reason];
}

const { controlCharacter, lineBreak, textDirection } = FIELD_REASONS;

const REFUSED: Refusal[] = [
  ...FIELDS.map((field) => refusal("NUL", field, "\u0000", controlCharacter)),
  refusal("a bell (U+0007)", "comments", "\u0007", controlCharacter),
  refusal("DEL (U+007F)", "lastName", "\u007f", controlCharacter),
  refusal("next line (U+0085)", "company", "\u0085", controlCharacter),
  refusal("a form feed", "comments", "\f", controlCharacter),
  ["CR LF and a header", "firstName", "Eve\r\nBcc: victim@example.com", lineBreak],
  ...ONE_LINE_TEXT_FIELDS.map((field) => refusal("a line feed", field, "\n", lineBreak)),
  refusal("a lone CR", "jobTitle", "\r", lineBreak),
  refusal("a line separator (U+2028)", "lastName", "\u2028", lineBreak),
  ["a line break", "email", "grace@example.com\nBcc: victim@example.com", lineBreak],
  ["a right-to-left override", "firstName", "Eve\u202Egnirts", textDirection],
  refusal("a left-to-right embedding", "lastName", "\u202A", textDirection),
  refusal("a pop directional formatting", "company", "\u202C", textDirection),
  refusal("a right-to-left isolate", "jobTitle", "\u2067", textDirection),
  refusal("a pop directional isolate", "phoneNumber", "\u2069", textDirection),
];

/** Unusual but valid: each is stored exactly as sent, in its column. */
const ACCEPTED: [
  string,
  InquiryField,
  string,
  "first_name" | "last_name" | "company" | "comments",
][] = [
  [
    "line breaks of every kind in the comments",
    "comments",
    "One\r\nTwo\nThree\rFour\u2028Five",
    "comments",
  ],
  ["a tab in a name", "firstName", "Grace\tAnn", "first_name"],
  ["a name in Hebrew with a right-to-left mark", "lastName", "הופר\u200F", "last_name"],
  [
    "an override in the comments, which may quote any text",
    "comments",
    "abc \u202Efed\u202C ghi",
    "comments",
  ],
  ["emoji, quotes and markup", "company", `Acme 🚀 "Quoted" <script>x</script>`, "company"],
];

describe("the shared rules refuse hostile characters", () => {
  it.each(REFUSED)("%s in %s", (_case, field, value, reason) => {
    expect(checkField(INQUIRY_FIELDS[field], value)).toBe(reason);
  });

  it.each(ACCEPTED)("and accept %s", (_case, field, value) => {
    expect(checkField(INQUIRY_FIELDS[field], value)).toBeNull();
  });

  it("in the subscribe form's address too", () => {
    expect(checkField(SUBSCRIBE_EMAIL_RULE, "jane\u0000@example.com")).toBe(
      FIELD_REASONS.controlCharacter,
    );
    expect(checkField(SUBSCRIBE_EMAIL_RULE, "jane@example.com\r\nBcc: x@example.com")).toBe(
      FIELD_REASONS.lineBreak,
    );
  });
});

/**
 * The console's text (its schemas ask characterReason): one line, or several
 * (a newsletter's body, a note), which keep line feeds and tabs but, being
 * published, take neither separators nor direction controls.
 */
describe("the console's text keeps to the same rules", () => {
  it.each([
    ["NUL", "text", "a\u0000b", controlCharacter],
    ["NUL", "multiline", "a\u0000b", controlCharacter],
    ["a bell", "multiline", "a\u0007b", controlCharacter],
    ["a C1 next line", "multiline", "a\u0085b", controlCharacter],
    ["a line feed", "text", "Cloud costs\nBcc: everyone@example.com", lineBreak],
    ["a line separator", "text", "a\u2028b", lineBreak],
    ["a line separator", "multiline", "a\u2028b", FIELD_REASONS.lineSeparator],
    ["a paragraph separator", "multiline", "a\u2029b", FIELD_REASONS.lineSeparator],
    ["a right-to-left override", "text", "Invoice \u202Efdp.exe", textDirection],
    ["a right-to-left override", "multiline", "One\nInvoice \u202Efdp.exe", textDirection],
    ["an isolate", "multiline", "a\u2067b\u2069", textDirection],
  ] as const)("refuses %s in %s", (_case, kind, value, reason) => {
    expect(characterReason(kind, value)).toBe(reason);
  });

  it.each([
    ["text", "Zoë’s “cloud” costs — Łódź, 東京, שלום\u200F 👩🏽‍💻"],
    ["text", "Grace\tAnn"],
    ["multiline", "# Heading\r\n\n\tindented\n- a list’s line — 🚀"],
  ] as const)("accepts in %s: %j", (kind, value) => {
    expect(characterReason(kind, value)).toBeNull();
  });
});

describe.each(SQLITE_ONLY)("hostile characters on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  beforeAll(async () => {
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  /** The service a form posted without JavaScript writes through. */
  const noScriptForms = () => formService(t.app, { token: "", refusal: null, log: t.app.log });

  async function rows(): Promise<{ inquiries: number; subscriptions: number }> {
    const count = async (table: "inquiries" | "subscriptions") => {
      const { n } = await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(n);
    };
    return { inquiries: await count("inquiries"), subscriptions: await count("subscriptions") };
  }

  it.each(REFUSED)(
    "%s in %s: 400 from the API and the form without script, in the browser's words, nothing stored",
    async (_case, field, value, reason) => {
      const before = await rows();
      const values: InquiryValues = { ...VALID_INQUIRY, [field]: value };
      const response = await post(t.app, session, "/api/v1/send-comment", values);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ [field]: reason });
      expect(response.json().message).toContain(`${field} ${reason}`);
      expect(checkInquiry(values, await t.app.content.inquiryTypes())).toEqual({ [field]: reason });

      expect(await noScriptForms().sendInquiry(values)).toEqual({
        outcome: "invalid",
        fields: { [field]: reason },
      });
      expect(await rows()).toEqual(before);
    },
  );

  it.each(ACCEPTED)("stores %s byte for byte", async (_case, field, value, column) => {
    const response = await post(t.app, session, "/api/v1/send-comment", {
      ...VALID_INQUIRY,
      [field]: value,
    });
    expect(response.statusCode).toBe(200);
    const row = await t.database.db
      .selectFrom("inquiries")
      .select(column)
      .where("id", "=", response.json().id)
      .executeTakeFirstOrThrow();
    expect(Object.values(row)).toEqual([value]);
  });

  it.each([
    ["NUL", "jane\u0000@example.com", FIELD_REASONS.controlCharacter],
    ["a line break", "jane@example.com\r\nBcc: x@example.com", FIELD_REASONS.lineBreak],
  ])(
    "an address with %s is refused by subscribe, in the browser's words",
    async (_c, email, reason) => {
      const before = await rows();
      const response = await post(
        t.app,
        session,
        `/api/v1/subscribe?${new URLSearchParams({ emailId: email })}`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ emailId: reason });
      expect(await noScriptForms().subscribe(email)).toEqual({
        outcome: "invalid",
        fields: { emailId: reason },
      });
      expect(await rows()).toEqual(before);
    },
  );

  describe("an unsubscribe token whose id no subscription can have", () => {
    const signature = "a".repeat(43);
    const tokens = ["2147483648", "4294967296", "999999999999999", "2147483647"].map(
      (id) => `${id}.${signature}`,
    );
    const invalid = { message: INVALID_LINK_MESSAGE };

    it.each(tokens)("%s is an invalid link on the page's calls", async (token) => {
      const query = `?${new URLSearchParams({ token })}`;
      const shown = await t.app.inject({ url: `/api/v1/unsubscribe${query}` });
      expect(shown.statusCode).toBe(404);
      expect(shown.json()).toEqual(invalid);
      const confirmed = await post(t.app, session, "/api/v1/unsubscribe", { token });
      expect(confirmed.statusCode).toBe(404);
      expect(confirmed.json()).toEqual(invalid);
    });

    it.each(tokens)("%s is an invalid link on the one-click POST", async (token) => {
      const response = await t.app.inject({
        method: "POST",
        url: `/unsubscribe?${new URLSearchParams({ token })}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(invalid);
    });
  });
});
