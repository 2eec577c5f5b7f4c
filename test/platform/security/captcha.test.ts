/**
 * The optional CAPTCHA (ADR 017), against a stand-in verification server:
 * each write is checked by a form-encoded POST of the secret, the answer and
 * the visitor's address; a missing answer is refused with 400, a refused one
 * with 403, an unreachable verifier answers 503 (never 500), each with words
 * for the visitor and nothing stored. Through the API and the forms posted
 * without JavaScript (the real server build), on both engines; when it is off,
 * the pages carry neither the widget nor its script.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTCHA_REFUSALS } from "../../../src/server/platform/security/bot-defence.ts";
import { CAPTCHA_FIELD, CAPTCHA_HEADER } from "../../../src/shared/bot-defence.ts";
import { CAPTCHA_SERVICES } from "../../../src/shared/captcha.ts";
import { FORM_TOKEN_FIELD } from "../../../src/shared/page-context.ts";
import { countRows, openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { openFormPage } from "../../support/form-page.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const SECRET = "captcha-secret";
const SITE_KEY = "captcha-site-key";
const PASSING = "a-good-answer";
const turnstile = CAPTCHA_SERVICES.turnstile;

/** Stands in for the service: `{success}` is true for PASSING under SECRET; it records each check. */
async function standInVerifier() {
  const checks: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const form = new URLSearchParams(body);
      checks.push(form);
      const success = form.get("secret") === SECRET && form.get("response") === PASSING;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ success }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  return { checks, url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.each(ENGINES)("CAPTCHA verification on $engine", (engine) => {
  let verifier: Awaited<ReturnType<typeof standInVerifier>>;
  let t: TestApp;
  let unreachable: TestApp;
  beforeAll(async () => {
    verifier = await standInVerifier();
    const captcha = {
      CAPTCHA_PROVIDER: "turnstile",
      CAPTCHA_SITE_KEY: SITE_KEY,
      CAPTCHA_SECRET: SECRET,
    };
    t = await startApp(engine, { ...captcha, CAPTCHA_VERIFY_URL: verifier.url }, { renderer });
    // Port 9 on loopback (discard) has no listener: the connection is refused.
    unreachable = await startApp(engine, { ...captcha, CAPTCHA_VERIFY_URL: "http://127.0.0.1:9/" });
  });
  afterAll(async () => {
    await t.close();
    await unreachable.close();
    await verifier.close();
  });

  const count = (app: TestApp, table: "inquiries" | "subscriptions") =>
    countRows(app.database, table);

  async function sendCommentWith(app: TestApp, answer: string) {
    const session = await openSession(app.app);
    return app.app.inject({
      method: "POST",
      url: "/api/v1/send-comment",
      headers: { cookie: session.cookie, "x-xsrf-token": session.token, [CAPTCHA_HEADER]: answer },
      payload: VALID_INQUIRY,
    });
  }

  async function subscribeWith(app: TestApp, address: string, answer?: string) {
    const session = await openSession(app.app);
    return app.app.inject({
      method: "POST",
      url: `/api/v1/subscribe?emailId=${encodeURIComponent(address)}`,
      headers: {
        cookie: session.cookie,
        "x-xsrf-token": session.token,
        ...(answer ? { [CAPTCHA_HEADER]: answer } : {}),
      },
    });
  }

  it("pages show the widget with the site key and load the service's script", async () => {
    const page = await t.app.inject({ url: "/contact-us" });
    expect(page.body).toContain(
      `<div class="${turnstile.widgetClass}" data-sitekey="${SITE_KEY}">`,
    );
    expect(page.body).toContain(`<script src="${turnstile.scriptUrl}" async=""`);
  });

  it.each([
    ["missing", undefined],
    ["failed", "a-wrong-answer"],
  ] as const)(
    "refuses a subscribe whose answer is %s, storing nothing",
    async (verdict, answer) => {
      const before = await count(t, "subscriptions");
      const response = await subscribeWith(t, `refused-${verdict}@example.com`, answer);
      const { status, message } = CAPTCHA_REFUSALS[verdict];
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ message, fields: { [CAPTCHA_FIELD]: message } });
      expect(await count(t, "subscriptions")).toBe(before);
    },
  );

  it("checks the answer with the secret and the visitor's address, then stores the write", async () => {
    const before = await count(t, "inquiries");
    const response = await sendCommentWith(t, PASSING);
    expect(response.statusCode).toBe(200);
    expect(await count(t, "inquiries")).toBe(before + 1);
    const check = verifier.checks.at(-1);
    expect(Object.fromEntries(check ?? [])).toEqual({
      secret: SECRET,
      response: PASSING,
      remoteip: "127.0.0.1",
    });
  });

  it("answers 503 with words for the visitor when the verifier cannot be reached", async () => {
    const before = await count(unreachable, "inquiries");
    const response = await sendCommentWith(unreachable, PASSING);
    expect(response.statusCode).toBe(503);
    const withAnswer = await subscribeWith(unreachable, "unreachable@example.com", PASSING);
    expect(withAnswer.statusCode).toBe(503);
    expect(withAnswer.json().message).toBe(CAPTCHA_REFUSALS.unreachable.message);
    expect(await count(unreachable, "inquiries")).toBe(before);
  });

  describe("forms posted without JavaScript", () => {
    async function postForm(fields: Record<string, string>) {
      const { cookie, token } = await openFormPage(t.app, "/subscribe");
      return t.app.inject({
        method: "POST",
        url: "/subscribe",
        headers: {
          cookie,
          origin: t.config.PUBLIC_ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: new URLSearchParams({ [FORM_TOKEN_FIELD]: token, ...fields }).toString(),
      });
    }

    it("a missing or refused answer gets the page with the reason, and nothing is stored", async () => {
      const before = await count(t, "subscriptions");
      const missing = await postForm({ emailId: "nojs-missing@example.com" });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain(CAPTCHA_REFUSALS.missing.message);
      const failed = await postForm({
        emailId: "nojs-failed@example.com",
        [turnstile.responseField]: "a-wrong-answer",
      });
      expect(failed.statusCode).toBe(403);
      expect(failed.body).toContain(CAPTCHA_REFUSALS.failed.message);
      // The address is kept, so the visitor can try again.
      expect(failed.body).toContain('value="nojs-failed@example.com"');
      expect(await count(t, "subscriptions")).toBe(before);
    });

    it("an accepted answer in the service's field subscribes", async () => {
      const before = await count(t, "subscriptions");
      const response = await postForm({
        emailId: `nojs-passed-${engine.engine}@example.com`,
        [turnstile.responseField]: PASSING,
      });
      expect(response.statusCode).toBe(201);
      expect(await count(t, "subscriptions")).toBe(before + 1);
    });
  });
});

describe("CAPTCHA switched off (the default)", () => {
  it("pages carry neither the widget nor any service's script", async () => {
    const [engine] = ENGINES;
    const t = await startApp(engine as (typeof ENGINES)[number], {}, { renderer });
    try {
      const page = await t.app.inject({ url: "/contact-us" });
      for (const service of Object.values(CAPTCHA_SERVICES)) {
        expect(page.body).not.toContain(service.widgetClass);
        expect(page.body).not.toContain(service.scriptUrl);
      }
      const session = await openSession(t.app);
      const response = await post(t.app, session, "/api/v1/subscribe?emailId=off%40example.com");
      expect(response.statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
