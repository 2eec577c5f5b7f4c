/**
 * The security headers every answer carries: a Permissions-Policy that denies
 * the powerful features, no X-Frame-Options beside the CSP's
 * `frame-ancestors 'none'` (they disagreed), and Strict-Transport-Security
 * only on answers sent over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_TRANSPORT_SECURITY } from "../../src/server/security/headers.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

const [sqlite] = ENGINES;
const ANSWERS = ["/", "/no-such-page", "/api/v1/teams/", "/api/v1/xsrf", "/healthz"];

describe("security headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, { TRUST_PROXY: "127.0.0.1" });
  });
  afterAll(() => t.close());

  it.each(ANSWERS)("%s denies camera, microphone, geolocation, payment and USB", async (url) => {
    const policy = String((await t.app.inject({ url })).headers["permissions-policy"]);
    const denied = policy.split(", ");
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) {
      expect(denied).toContain(`${feature}=()`);
    }
  });

  it.each(ANSWERS)("%s forbids framing by the CSP alone, without X-Frame-Options", async (url) => {
    const response = await t.app.inject({ url });
    expect(String(response.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
    expect(response.headers["x-frame-options"]).toBeUndefined();
  });

  it.each(ANSWERS)("%s sends Strict-Transport-Security over HTTPS only", async (url) => {
    const plain = await t.app.inject({ url });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const https = await t.app.inject({ url, headers: { "x-forwarded-proto": "https" } });
    expect(https.headers["strict-transport-security"]).toBe(STRICT_TRANSPORT_SECURITY);
  });
});
