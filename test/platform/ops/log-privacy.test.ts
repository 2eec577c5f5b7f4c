/**
 * The log holds no e-mail address and no token, at any level: a whole
 * journey through the API at trace level (subscribing and confirming,
 * an inquiry, unsubscribing, signing in to the console, a password reset)
 * leaves none in any line, and neither does a mail server's refusal that
 * names its recipient. Nor does it hold what a visitor wrote: an inquiry's
 * mail written to the mailbox folder leaves no name, company, phone or
 * message text in it. Request lines keep the method and the path.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { withoutAddresses } from "../../../src/server/platform/ops/logger.ts";
import { AUTH_PATHS } from "../../../src/shared/admin/auth.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { anonymous, createAccount, signIn, TEST_PASSWORD } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { FAST_OUTBOX, mailTo } from "../../support/mail-env.ts";
import { type ReceivedMail, startSmtp, type TestSmtp } from "../../support/smtp.ts";

const SUBSCRIBER = "jane.doe@example.org";
const INQUIRER = "grace.hopper@example.net";
const OWNER = "owner.person@firm.example";
const NEW_PASSWORD = "a new and longer passphrase";

/** An address, plain or percent-encoded as in a query string. */
const EMAIL_ADDRESS = /[\w.+-]+(?:@|%40)[\w-]+(?:\.[\w-]+)+/gi;

const subscribePath = (email: string) => `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`;

/** The token of the first link in a mail's text that `pattern` finds. */
function tokenIn(mail: ReceivedMail | undefined, pattern: RegExp): string {
  const token = pattern.exec(mail?.parsed.text ?? "")?.[1];
  if (!token) throw new Error(`no link matching ${pattern} in the mail`);
  return decodeURIComponent(token);
}

/** Waits for a log line that `match` finds; fails after `limitMs`. */
async function logged(t: TestApp, match: RegExp, limitMs = 10_000) {
  await vi.waitFor(
    () => {
      if (!t.logs.some((line) => match.test(line))) throw new Error(`no log line matched ${match}`);
    },
    { timeout: limitMs, interval: 20 },
  );
}

function expectNothingPersonal(logs: string[], tokens: string[]) {
  const text = logs.join("");
  expect(text.match(EMAIL_ADDRESS) ?? []).toEqual([]);
  for (const token of tokens) expect(text).not.toContain(token);
}

describe.each(SQLITE_ONLY)("the log on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp | undefined;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(() => smtp.close());

  it("holds no address and no token after a whole journey at trace level", async () => {
    t = await startApp(engine, { ...mailTo(smtp.url), NEWSLETTER_DOUBLE_OPT_IN: "true" });
    t.app.log.level = "trace";
    const { app } = t;
    const session = await openSession(app);

    expect((await post(app, session, subscribePath(SUBSCRIBER))).statusCode).toBeLessThan(300);
    const inquiry = await post(app, session, "/api/v1/send-comment", {
      ...VALID_INQUIRY,
      email: INQUIRER,
    });
    expect(inquiry.statusCode).toBe(200);

    const [confirmation] = await smtp.waitForMailTo(SUBSCRIBER);
    const confirmToken = tokenIn(confirmation, /\/subscribe\/confirm\?token=([^\s\]]+)/);
    const confirmQuery = `/api/v1/subscribe/confirm?token=${encodeURIComponent(confirmToken)}`;
    expect((await app.inject({ url: confirmQuery })).statusCode).toBe(200);
    const confirmed = await post(app, session, "/api/v1/subscribe/confirm", {
      token: confirmToken,
    });
    expect(confirmed.statusCode).toBe(200);

    const welcome = (await smtp.waitForMailTo(SUBSCRIBER, 2))[1];
    const unsubscribeToken = tokenIn(welcome, /\/unsubscribe\?token=([^\s\]]+)/);
    const unsubscribeQuery = `?token=${encodeURIComponent(unsubscribeToken)}`;
    expect((await app.inject({ url: `/unsubscribe${unsubscribeQuery}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `/api/v1/unsubscribe${unsubscribeQuery}` })).statusCode).toBe(
      200,
    );
    const left = await post(app, session, "/api/v1/unsubscribe", { token: unsubscribeToken });
    expect(left.statusCode).toBe(200);
    const oneClick = await app.inject({ method: "POST", url: `/unsubscribe${unsubscribeQuery}` });
    expect(oneClick.statusCode).toBe(200);

    await createAccount(t.database, "owner", OWNER);
    const stranger = await anonymous(app);
    const wrong = await stranger.request("POST", AUTH_PATHS.session, {
      email: OWNER,
      password: "not the password at all",
    });
    expect(wrong.statusCode).toBe(401);
    const owner = await signIn(app, OWNER);
    expect((await owner.request("GET", AUTH_PATHS.session)).statusCode).toBe(200);

    const reset = await stranger.request("POST", AUTH_PATHS.passwordReset, { email: OWNER });
    expect(reset.statusCode).toBeLessThan(300);
    const [resetMail] = await smtp.waitForMailTo(OWNER);
    const resetToken = tokenIn(resetMail, /#token=([\w-]+)/);
    const set = await stranger.request("POST", AUTH_PATHS.password, {
      token: resetToken,
      password: NEW_PASSWORD,
    });
    expect(set.statusCode).toBe(200);
    await logged(t, /"msg":"mail sent"/);

    expect(t.logs.some((line) => line.includes('"url":"/api/v1/subscribe?'))).toBe(true);
    expectNothingPersonal(t.logs, [
      confirmToken,
      unsubscribeToken,
      resetToken,
      session.token,
      owner.cookie.replace(/^.*console_session=/, ""),
      TEST_PASSWORD,
      NEW_PASSWORD,
    ]);
  });

  it("holds no name, company, phone or message text of an inquiry written to the mailbox folder", async () => {
    // No SMTP_URL: the outbox writes each message to the mailbox folder, and says so.
    t = await startApp(engine, FAST_OUTBOX);
    const session = await openSession(t.app);
    const visitor = {
      ...VALID_INQUIRY,
      firstName: "Philippa",
      lastName: "Quenneville",
      company: "Zebulon Tapestry Works",
      email: INQUIRER,
      phoneNumber: "+44 20 7946 0321",
      comments: "Our looms stopped counting on Tuesday.",
    };
    expect((await post(t.app, session, "/api/v1/send-comment", visitor)).statusCode).toBe(200);
    await logged(t, /"msg":"mail written to the local mailbox folder"/);
    const text = t.logs.join("");
    for (const field of ["firstName", "lastName", "company", "phoneNumber", "comments"] as const) {
      expect(text, field).not.toContain(visitor[field]);
    }
    expectNothingPersonal(t.logs, []);
  });

  it("holds no address when the mail server refuses a recipient by name", async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo(address, _session, callback) {
        callback(
          Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
            responseCode: 550,
          }),
        );
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = refusing.server.address() as AddressInfo;
      t = await startApp(engine, mailTo(`smtp://127.0.0.1:${port}`, { OUTBOX_MAX_ATTEMPTS: "1" }));
      const session = await openSession(t.app);
      expect((await post(t.app, session, subscribePath(SUBSCRIBER))).statusCode).toBe(201);
      await logged(t, /"msg":"recipient refused by the receiving server; not retried"/);
      expectNothingPersonal(t.logs, []);
    } finally {
      // The app first: its sender's connection would hold the mail server's close up.
      await t?.close();
      t = undefined;
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

describe("masking the addresses in a log line", () => {
  it("masks plain and percent-encoded addresses, keeping their domains", () => {
    expect(
      withoutAddresses('{"err":"550 <jane.doe@example.org>","q":"o\'brien%40example.net"}'),
    ).toBe('{"err":"550 <***@example.org>","q":"***%40example.net"}');
  });

  it("takes one pass over a hostile path of address characters", () => {
    // One pass over it takes milliseconds; a match tried again from every
    // character (the first pattern) takes minutes, past the test's time-out.
    const line = `{"url":"/${"x".repeat(400_000)}@","to":"jane.doe%40example.org"}`;
    expect(withoutAddresses(line).endsWith('"to":"***%40example.org"}')).toBe(true);
  });
});
