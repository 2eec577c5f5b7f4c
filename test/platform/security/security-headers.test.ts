/**
 * The security headers every answer carries: a Permissions-Policy that denies
 * the powerful features, no X-Frame-Options beside the CSP's
 * `frame-ancestors 'none'` (they disagreed), and Strict-Transport-Security
 * only on answers sent over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_PATH } from "../../../src/server/platform/console/console-files.ts";
import { STRICT_TRANSPORT_SECURITY } from "../../../src/server/platform/security/headers.ts";
import { CAPTCHA_SERVICES, type CaptchaProvider } from "../../../src/shared/captcha.ts";
import { caseStudyPath, PAGE_PATHS } from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { inlineScriptHashes, inlineStyleHashes } from "../../support/inline-hashes.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

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

  it.each(ANSWERS)(
    "%s tells other sites nothing of where their visitors were (Referrer-Policy: same-origin)",
    async (url) => {
      // Its own requests carry the page's address: a form posted without
      // JavaScript names its page, the lead's source (ADR 052).
      expect((await t.app.inject({ url })).headers["referrer-policy"]).toBe("same-origin");
    },
  );

  it.each(ANSWERS)("%s sends Strict-Transport-Security over HTTPS only", async (url) => {
    const plain = await t.app.inject({ url });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const https = await t.app.inject({ url, headers: { "x-forwarded-proto": "https" } });
    expect(https.headers["strict-transport-security"]).toBe(STRICT_TRANSPORT_SECURITY);
  });
});

/**
 * No 'unsafe-inline' anywhere: every page the real server build renders and
 * the console's page allow styles from this origin and, for the page's one
 * inline <style>, its hash; no element carries a style attribute (the policy
 * would block it). With CAPTCHA_PROVIDER set, the pages also allow the
 * widget's origins; without it, nothing beyond the site itself.
 */

const SERVED_PAGES = [
  ...PAGE_PATHS,
  caseStudyPath("finance-ar-forecast"),
  "/no-such-page",
  CONSOLE_PATH,
  `${CONSOLE_PATH}/inquiries`,
];

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((entry) => entry.trim().split(" "))
    .find(([directiveName]) => directiveName === name)
    ?.slice(1);

const quotedHashes = (hashes: string[]) => hashes.map((hash) => `'${hash}'`);

describe("the Content-Security-Policy of every page", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, {}, { renderer });
  });
  afterAll(() => t.close());

  it.each(SERVED_PAGES)("%s allows no inline script or style but its own, by hash", async (url) => {
    const response = await t.app.inject({ url, headers: { "accept-encoding": "identity" } });
    expect(response.headers["content-type"]).toMatch(/text\/html/);
    const policy = String(response.headers["content-security-policy"]);
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-hashes");
    const html = response.body;
    expect(html).not.toMatch(/<[a-z][^>]*\sstyle=/i);
    expect(directive(policy, "style-src")).toEqual([
      "'self'",
      ...quotedHashes(inlineStyleHashes(html)),
    ]);
    expect(directive(policy, "script-src")).toEqual([
      "'self'",
      ...quotedHashes(inlineScriptHashes(html)),
    ]);
    // No third party anywhere while no CAPTCHA is configured.
    expect(policy).not.toMatch(/https?:/);
  });

  it("inlines one stylesheet on each public page, allowed by its hash", async () => {
    const html = (await t.app.inject({ url: "/weare" })).body;
    expect(inlineStyleHashes(html)).toHaveLength(1);
  });
});

describe.each(Object.keys(CAPTCHA_SERVICES) as CaptchaProvider[])(
  "the pages' policy with CAPTCHA_PROVIDER=%s",
  (provider) => {
    let t: TestApp;
    beforeAll(async () => {
      if (!sqlite) throw new Error("SQLite engine missing");
      t = await startApp(sqlite, {
        CAPTCHA_PROVIDER: provider,
        CAPTCHA_SITE_KEY: "site-key",
        CAPTCHA_SECRET: "secret",
      });
    });
    afterAll(() => t.close());

    it.each(["/contact-us", "/"])(
      "%s allows the widget's origins for its script, frame, style and calls",
      async (url) => {
        const policy = String((await t.app.inject({ url })).headers["content-security-policy"]);
        for (const name of ["script-src", "frame-src", "style-src", "connect-src"]) {
          const sources = directive(policy, name) ?? [];
          for (const origin of CAPTCHA_SERVICES[provider].origins) {
            expect(sources, name).toContain(origin);
          }
        }
        expect(policy).not.toContain("unsafe-inline");
      },
    );

    it("does not widen the policy of answers that are not pages", async () => {
      const policy = String(
        (await t.app.inject({ url: "/api/v1/teams/" })).headers["content-security-policy"],
      );
      expect(policy).not.toMatch(/https?:/);
    });
  },
);
