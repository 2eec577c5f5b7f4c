import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CAPABILITIES } from "../../../src/shared/capabilities.ts";
import { checkField, EMAIL_PATTERN, FIELD_REASONS } from "../../../src/shared/field-rules.ts";
import {
  INQUIRY_FIELDS,
  type InquiryField,
  inquiryRules,
  inquiryTypesOf,
} from "../../../src/shared/inquiry.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";

const REQUIRED = Object.entries(INQUIRY_FIELDS)
  .filter(([, rule]) => rule.required)
  .map(([name]) => name);

/** Addresses a browser's type=email accepts, or nearly; the server decides with EMAIL_PATTERN. */
const ADDRESSES = [
  "jane@acme",
  "a@b",
  "jane@acme.com",
  "first.last+tag@mail.example.co.uk",
  "o'brien@example.ie",
  "x@y.z",
  ".dot@example.com",
  "two..dots@example.com",
  "jane@-acme.com",
  "jane@acme.c0m",
  "jane@acme.com.",
  "user_name-1@sub-domain.example.org",
];

describe("the shared e-mail rule", () => {
  it.each(ADDRESSES)("judges %j as Zod's z.email() did before it replaced it", (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(z.regexes.email.test(address));
  });

  it("refuses an address without a dot in its domain", () => {
    for (const address of ["jane@acme", "a@b"]) {
      expect(checkField(INQUIRY_FIELDS.email, address)).toBe(FIELD_REASONS.email);
    }
    expect(checkField(INQUIRY_FIELDS.email, " jane@acme.com ")).toBeNull();
  });
});

describe.each(SQLITE_ONLY)("POST /api/v1/send-comment on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  beforeAll(async () => {
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  const send = (body: unknown, url = "/api/v1/send-comment") => post(t.app, session, url, body);

  it("answers 200 {id} and stores every field", async () => {
    const response = await send(VALID_INQUIRY);
    expect(response.statusCode).toBe(200);
    const { id } = response.json();
    expect(id).toEqual(expect.any(Number));
    const row = await t.database.db
      .selectFrom("inquiries")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      company: "Harvard Computation Lab",
      job_title: "Rear Admiral",
      email: "grace@example.com",
      phone_number: "+1 555 0100",
      inquiry_type: "Machine Learning",
      comments: "We would like to forecast our receivables.",
    });
  });

  it("accepts the path with a trailing slash and without the optional fields", async () => {
    const { company: _company, jobTitle: _jobTitle, ...required } = VALID_INQUIRY;
    const response = await send(required, "/api/v1/send-comment/");
    expect(response.statusCode).toBe(200);
  });

  it.each(REQUIRED)("answers 400 naming %s when it is missing", async (field) => {
    const body: Record<string, unknown> = { ...VALID_INQUIRY };
    delete body[field];
    const response = await send(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ [field]: expect.any(String) });
    expect(response.json().message).toContain(field);
  });

  it.each(REQUIRED)("answers 400 naming %s when it is blank", async (field) => {
    const response = await send({ ...VALID_INQUIRY, [field]: "   " });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toEqual([field]);
  });

  it.each(Object.entries(INQUIRY_FIELDS))(
    "answers 400 naming %s when it is too long",
    async (field, rule) => {
      const tooLong =
        field === "email"
          ? `${"a".repeat(rule.maxLength)}@example.com`
          : "x".repeat(rule.maxLength + 1);
      const response = await send({ ...VALID_INQUIRY, [field]: tooLong });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual([field]);
    },
  );

  it.each([
    ["email", "grace.example.com", /valid e-mail/],
    ["inquiryType", "Gardening", /must be one of/],
    ["firstName", 42, /text/],
  ])("answers 400 naming %s when it is %s", async (field, value, reason) => {
    const response = await send({ ...VALID_INQUIRY, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toMatch(reason);
  });

  it.each<[InquiryField, string]>([
    ...ADDRESSES.map((address): [InquiryField, string] => ["email", address]),
    ["firstName", "   "],
    ["lastName", "\t"],
    ["company", "   "],
    ["phoneNumber", "x".repeat(41)],
    ["comments", ` ${"x".repeat(5000)} `],
    ["inquiryType", "Gardening"],
    ["inquiryType", "Automation"],
  ])(
    "refuses %s = %j exactly when the form's shared rule does, in its words",
    async (field, value) => {
      // The server is seeded with the fixed capabilities: the types on offer are theirs.
      const reason = checkField(inquiryRules(inquiryTypesOf(CAPABILITIES))[field], value);
      const response = await send({ ...VALID_INQUIRY, [field]: value });
      if (reason === null) {
        expect(response.statusCode).toBe(200);
      } else {
        expect(response.statusCode).toBe(400);
        expect(response.json().fields).toEqual({ [field]: reason });
      }
    },
  );

  it("refuses unknown fields", async () => {
    const response = await send({ ...VALID_INQUIRY, isAdmin: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ isAdmin: "is not an accepted field" });
  });

  it("answers 400 with a message for a body that is not a JSON object", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/send-comment",
      headers: {
        cookie: session.cookie,
        "x-xsrf-token": session.token,
        "content-type": "application/json",
      },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });
});
