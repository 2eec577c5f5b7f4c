import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  SUBSCRIBED_MESSAGE,
} from "../../../src/server/features/subscriptions/index.ts";
import { checkField, FIELD_REASONS } from "../../../src/shared/field-rules.ts";
import { SUBSCRIBE_EMAIL_RULE } from "../../../src/shared/subscription.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

describe.each(SQLITE_ONLY)("POST /api/v1/subscribe on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  beforeAll(async () => {
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  const subscribe = (emailId?: string, slash = "") =>
    post(
      t.app,
      session,
      `/api/v1/subscribe${slash}${emailId === undefined ? "" : `?${new URLSearchParams({ emailId })}`}`,
    );

  it("answers 201 for a new address and stores it trimmed and lower-cased", async () => {
    const response = await subscribe("  New.Reader@Example.com ");
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: SUBSCRIBED_MESSAGE, confirmationAsked: false });
    const row = await t.database.db
      .selectFrom("subscriptions")
      .select(["email", "subscribed_via"])
      .where("email", "=", "new.reader@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: "new.reader@example.com", subscribed_via: "website" });
  });

  it("answers 409 with a message for an address already subscribed, whatever its case", async () => {
    await subscribe("twice@example.com");
    const response = await subscribe("TWICE@example.com ", "/");
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: ALREADY_SUBSCRIBED_MESSAGE });
  });

  it("accepts the path with a trailing slash", async () => {
    expect((await subscribe("slash@example.com", "/")).statusCode).toBe(201);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["malformed", "not-an-address"],
    ["too long", `${"a".repeat(250)}@example.com`],
  ])("answers 400 with a message for a %s address", async (_case, emailId) => {
    const response = await subscribe(emailId);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/emailId/);
  });

  it.each(["jane@acme", "a@b"])(
    "answers 400 with the shared rule's reason for %j, which a browser's type=email lets through",
    async (emailId) => {
      const response = await subscribe(emailId);
      expect(response.statusCode).toBe(400);
      expect(checkField(SUBSCRIBE_EMAIL_RULE, emailId)).toBe(FIELD_REASONS.email);
      expect(response.json().fields).toEqual({ emailId: FIELD_REASONS.email });
    },
  );
});
