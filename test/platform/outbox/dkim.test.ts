/**
 * DKIM signing: with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE
 * set, a message received by a real SMTP server carries a signature that
 * mailauth verifies against the public key as it would be published in
 * DNS (served here by a resolver of the test's own), and a message changed
 * on the way fails it. A newsletter's copy has its one-click unsubscribe
 * headers, List-Unsubscribe and List-Unsubscribe-Post, under the signature
 * (RFC 8058 section 4), so a forwarder cannot add or change either. A
 * half-made setting stops the start, named.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticate } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/server/platform/config.ts";
import { loadConfig } from "../../../src/server/settings.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const DOMAIN = "firm.example";
const SELECTOR = "insight2026";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
/** The TXT record the firm publishes at <selector>._domainkey.<domain>. */
const PUBLISHED = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

async function dkimResults(raw: string) {
  const resolver = async (name: string, type: string) => {
    if (type === "TXT" && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[PUBLISHED]];
    throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
  };
  const { dkim } = await authenticate(raw, {
    resolver,
    ip: "127.0.0.1",
    helo: "localhost",
    sender: `insight@${DOMAIN}`,
    mta: "mx.example.net",
  });
  return dkim.results;
}

/** The header names a DKIM-Signature's h= tag lists, lower-cased. */
function signedHeaders(raw: string): string[] {
  const headerBlock = raw.slice(0, raw.indexOf("\r\n\r\n")).replaceAll(/\r\n[ \t]+/g, " ");
  const signature = headerBlock.split("\r\n").find((line) => /^dkim-signature:/i.test(line));
  const tag = signature
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith("h="));
  return (tag?.slice(2).split(":") ?? []).map((name) => name.trim().toLowerCase());
}

// Signing happens in the transport, the same on either engine: SQLite's is enough.
describe("DKIM signing", () => {
  const [engine] = ENGINES;
  let smtp: TestSmtp;
  let t: TestApp;

  beforeAll(async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), "dkim-")), "private.pem");
    writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
    smtp = await startSmtp();
    if (!engine) throw new Error("no engine to test on");
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        MAIL_FROM: `"The Firm" <insight@${DOMAIN}>`,
        DKIM_DOMAIN: DOMAIN,
        DKIM_SELECTOR: SELECTOR,
        DKIM_PRIVATE_KEY_FILE: keyFile,
      }),
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("signs each message so that a receiver verifies it, and a changed message fails", async () => {
    const session = await openSession(t.app);
    const email = "signed@example.com";
    expect((await post(t.app, session, `/api/v1/subscribe?emailId=${email}`)).statusCode).toBe(201);
    const [welcome] = await smtp.waitForMailTo(email);
    const raw = welcome?.raw ?? "";

    const [result] = await dkimResults(raw);
    expect(result?.signingDomain).toBe(DOMAIN);
    expect(result?.selector).toBe(SELECTOR);
    expect(result?.status.result).toBe("pass");

    const changed = raw.replace("Welcome to Insight", "Welcome to Outsight");
    expect(changed).not.toBe(raw);
    const [tampered] = await dkimResults(changed);
    expect(tampered?.status.result).toBe("fail");
  });

  it("signs a newsletter copy's List-Unsubscribe and List-Unsubscribe-Post", async () => {
    const [reader = ""] = await addSubscribers(t.database, "dkim-reader", 1);
    await scheduleIssue(t.database, "dkim-signed", 10);
    const [copy] = await smtp.waitForMailTo(reader);
    const raw = copy?.raw ?? "";
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);

    const [result] = await dkimResults(raw);
    expect(result?.status.result).toBe("pass");
    expect(signedHeaders(raw)).toEqual(
      expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]),
    );
  });
});

describe("DKIM settings", () => {
  it("refuses a domain and selector without the key, naming what is missing", () => {
    expect(() => loadConfig({ DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR })).toThrow(ConfigError);
    expect(() => loadConfig({ DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR })).toThrow(
      /DKIM_PRIVATE_KEY_FILE.*must be set with DKIM_DOMAIN and DKIM_SELECTOR/,
    );
  });
});
