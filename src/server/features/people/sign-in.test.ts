/**
 * Signing in and out: Argon2id hashes, sessions in the database with their
 * cookie, time-outs, sign out here and everywhere, and single-use password
 * links. Each attempt is counted before its password is checked, under the
 * account at that address, the account's untrusted clients together and the
 * address, or under a known device alone; the locks that follow never tell
 * whether an account exists.
 */

import { generateSecret } from "otplib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import {
  anonymous,
  clientWith,
  createAccount,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
} from "../../../../test/support/console.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../shared/admin/auth.ts";
import { hashToken } from "../../platform/console/tokens.ts";
import { ensureUser } from "../../platform/console/users.ts";
import { lockLengthMs } from "./sign-in-throttle.ts";
import { enableSecondFactor, pendingSecret, storePendingSecret } from "./totp.ts";
import { issueUserToken } from "./user-tokens.ts";

const LOCK_SECONDS = 1;
const FREE_FAILURES = 3;
/** An account's untrusted clients together get four times the free failures. */
const UNTRUSTED_ALLOWANCE = FREE_FAILURES * 4;
/** The cookie that marks a browser where the account signed in before. */
const DEVICE_COOKIE = "console_device";

describe("lock lengths", () => {
  const policy = { freeFailures: 5, lockMs: 60_000 };
  it("are free for the first failures, then double, up to an hour", () => {
    expect([1, 4].map((n) => lockLengthMs(n, policy))).toEqual([0, 0]);
    expect([5, 6, 7].map((n) => lockLengthMs(n, policy))).toEqual([60_000, 120_000, 240_000]);
    expect(lockLengthMs(30, policy)).toBe(3_600_000);
  });
});

describe.each(SQLITE_ONLY)("console sign-in on $engine", (engine) => {
  let t: TestApp;
  /** Set, the server's clock stands at this instant; unset, it is the real one. */
  let pinnedNow: number | undefined;
  beforeAll(async () => {
    t = await startApp(
      engine,
      {
        SIGN_IN_LOCK_SECONDS: String(LOCK_SECONDS),
        SIGN_IN_FREE_FAILURES: String(FREE_FAILURES),
      },
      { now: () => pinnedNow ?? Date.now() },
    );
  });
  afterEach(() => {
    pinnedNow = undefined;
  });

  /**
   * Runs `burst` with the clock stopped, as if every request arrived in the
   * same instant: the one-second lock cannot pass while a busy machine
   * works through them.
   */
  async function inOneInstant<T>(burst: () => Promise<T>): Promise<T> {
    pinnedNow = Date.now();
    try {
      return await burst();
    } finally {
      pinnedNow = undefined;
    }
  }
  afterAll(() => t.close());

  async function attempt(
    email: string,
    password: string,
    ip = "127.0.0.1",
    { device, code }: { device?: string; code?: string } = {},
  ) {
    const client = await anonymous(t.app);
    return t.app.inject({
      method: "POST",
      url: AUTH_PATHS.session,
      remoteAddress: ip,
      headers: {
        cookie: device ? `${client.cookie}; ${DEVICE_COOKIE}=${device}` : client.cookie,
        "x-xsrf-token": client.token,
      },
      payload: { email, password, ...(code === undefined ? {} : { code }) },
    });
  }

  function statusCounts(responses: { statusCode: number }[]) {
    const counts: Record<number, number> = {};
    for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
    return counts;
  }

  /** Wrong passwords for the account from as many addresses: its untrusted clients' whole allowance. */
  async function strangersFail(email: string, prefix: string) {
    for (let n = 0; n < UNTRUSTED_ALLOWANCE; n++) {
      expect((await attempt(email, "a stranger's guess", `${prefix}.${n}`)).statusCode).toBe(401);
    }
  }

  function deviceOf(response: { cookies: { name: string; value: string }[] }) {
    const cookie = response.cookies.find((c) => c.name === DEVICE_COOKIE);
    if (!cookie) throw new Error("no device cookie was set");
    return cookie.value;
  }

  it("stores the password as an Argon2id hash", async () => {
    await createAccount(t.database, "viewer", "hash@firm.example");
    const row = await t.database.db
      .selectFrom("users")
      .select("password_hash")
      .where("email", "=", "hash@firm.example")
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("opens a session with an HttpOnly, SameSite=Strict cookie kept to the console's API", async () => {
    await createAccount(t.database, "editor", "cookie@firm.example");
    const response = await attempt("Cookie@Firm.example", TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: "cookie@firm.example", role: "editor" });
    const cookie = response.cookies.find((c) => c.name === "console_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/admin" });
    expect(cookie?.secure).toBeUndefined();
    // Only the token's hash is stored.
    const stored = await t.database.db.selectFrom("sessions").select("id").execute();
    expect(stored.map((s) => s.id)).not.toContain(cookie?.value);
  });

  it("answers a wrong password and an unknown account alike", async () => {
    await createAccount(t.database, "viewer", "alike@firm.example");
    const wrong = await attempt("alike@firm.example", "not the password", "10.0.0.1");
    const unknown = await attempt("nobody@firm.example", "not the password", "10.0.0.2");
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual({ message: AUTH_TEXTS.wrongCredentials });
    expect(unknown.json()).toEqual(wrong.json());
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor"])
      .where("action", "=", "sign-in-failed")
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "sign-in-failed", actor: "alike@firm.example" },
        { action: "sign-in-failed", actor: "nobody@firm.example" },
      ]),
    );
  });

  it("locks an account at one address after its free failures, real and unknown alike, then recovers", async () => {
    await createAccount(t.database, "viewer", "locked@firm.example");
    for (const email of ["locked@firm.example", "ghost@firm.example"]) {
      for (let n = 0; n < FREE_FAILURES; n++) {
        expect((await attempt(email, "guess", "10.1.0.1")).statusCode).toBe(401);
      }
      const locked = await attempt(email, TEST_PASSWORD, "10.1.0.1");
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: AUTH_TEXTS.locked });
      expect(Number(locked.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    // The right password works once the lock has passed, by the clock.
    pinnedNow = Date.now() + LOCK_SECONDS * 1000 + 1;
    expect((await attempt("locked@firm.example", TEST_PASSWORD, "10.1.0.1")).statusCode).toBe(200);
    pinnedNow = undefined;
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select("actor")
      .where("action", "=", "sign-in-locked")
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([{ actor: "locked@firm.example" }, { actor: "ghost@firm.example" }]),
    );
  });

  it("lets the owner in from another address while a stranger's address is locked out of the account", async () => {
    await createAccount(t.database, "viewer", "elsewhere@firm.example");
    for (let n = 0; n < FREE_FAILURES; n++) {
      expect((await attempt("elsewhere@firm.example", "guess", "10.4.0.1")).statusCode).toBe(401);
    }
    expect((await attempt("elsewhere@firm.example", TEST_PASSWORD, "10.4.0.1")).statusCode).toBe(
      429,
    );
    expect((await attempt("elsewhere@firm.example", TEST_PASSWORD, "10.4.0.2")).statusCode).toBe(
      200,
    );
  });

  it("slows guesses spread over many addresses with the account's own larger allowance", async () => {
    await createAccount(t.database, "viewer", "spread@firm.example");
    for (const email of ["spread@firm.example", "spread-ghost@firm.example"]) {
      await strangersFail(email, email === "spread@firm.example" ? "10.5.0" : "10.5.1");
      const locked = await attempt(email, TEST_PASSWORD, "10.5.2.1");
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: AUTH_TEXTS.locked });
    }
  });

  it("checks at most the free allowance when 50 wrong passwords arrive at once", async () => {
    await createAccount(t.database, "viewer", "race@firm.example");
    const responses = await inOneInstant(() =>
      Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          attempt("race@firm.example", `guess ${n}`, "10.3.0.1"),
        ),
      ),
    );
    const counts = statusCounts(responses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(FREE_FAILURES);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(50);
  });

  it("checks at most the free allowance when 50 wrong codes arrive at once", async () => {
    const user = await createAccount(t.database, "viewer", "race-code@firm.example");
    await storePendingSecret(t.database.db, user.id, generateSecret());
    const secret = (await pendingSecret(t.database.db, user.id)) as string;
    await enableSecondFactor(t.database.db, user.id, secret, [hashToken("RECOVERY")]);
    const responses = await inOneInstant(() =>
      Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          attempt("race-code@firm.example", TEST_PASSWORD, "10.3.1.1", {
            code: String(100000 + n),
          }),
        ),
      ),
    );
    const counts = statusCounts(responses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(FREE_FAILURES);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(50);
  });

  describe("a known device", () => {
    it("is remembered with a signed cookie kept to the sign-in route", async () => {
      await createAccount(t.database, "viewer", "device-cookie@firm.example");
      const response = await attempt("device-cookie@firm.example", TEST_PASSWORD, "10.6.0.1");
      const cookie = response.cookies.find((c) => c.name === DEVICE_COOKIE);
      expect(cookie).toMatchObject({
        httpOnly: true,
        sameSite: "Strict",
        path: AUTH_PATHS.session,
      });
      expect(cookie?.maxAge).toBeGreaterThan(0);
    });

    it("still gets in while strangers have locked the account's untrusted sign-ins", async () => {
      await createAccount(t.database, "viewer", "device@firm.example");
      await createAccount(t.database, "viewer", "device-other@firm.example");
      const device = deviceOf(await attempt("device@firm.example", TEST_PASSWORD, "10.7.0.1"));
      const otherDevice = deviceOf(
        await attempt("device-other@firm.example", TEST_PASSWORD, "10.7.0.1"),
      );
      await strangersFail("device@firm.example", "10.7.1");
      // Without the cookie the owner is one more untrusted client; with another
      // account's cookie, or one not signed by the server, too.
      for (const cookie of [undefined, otherDevice, `${device.slice(0, -2)}xx`]) {
        const refused = await attempt("device@firm.example", TEST_PASSWORD, "10.7.0.1", {
          ...(cookie ? { device: cookie } : {}),
        });
        expect(refused.statusCode).toBe(429);
      }
      const known = await attempt("device@firm.example", TEST_PASSWORD, "10.7.0.1", { device });
      expect(known.statusCode).toBe(200);
      expect(known.json()).toMatchObject({ email: "device@firm.example" });
    });

    it("has its own failures counted against it alone", async () => {
      await createAccount(t.database, "viewer", "device-guess@firm.example");
      const device = deviceOf(
        await attempt("device-guess@firm.example", TEST_PASSWORD, "10.8.0.1"),
      );
      for (let n = 0; n < FREE_FAILURES; n++) {
        const wrong = await attempt("device-guess@firm.example", "guess", "10.8.0.1", { device });
        expect(wrong.statusCode).toBe(401);
      }
      const locked = await attempt("device-guess@firm.example", TEST_PASSWORD, "10.8.0.1", {
        device,
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: AUTH_TEXTS.locked });
      // The same address without the cookie has failed nothing.
      expect(
        (await attempt("device-guess@firm.example", TEST_PASSWORD, "10.8.0.1")).statusCode,
      ).toBe(200);
    });
  });

  it("locks an address that fails across many accounts", async () => {
    const ip = "10.2.0.1";
    // An address gets four times an account's free failures.
    for (let n = 0; n < FREE_FAILURES * 4; n++) {
      expect((await attempt(`spray${n}@firm.example`, "guess", ip)).statusCode).toBe(401);
    }
    expect((await attempt("spray-next@firm.example", "guess", ip)).statusCode).toBe(429);
    expect((await attempt("spray-next@firm.example", "guess", "10.2.0.2")).statusCode).toBe(401);
  });

  it("gives a new session id at every sign-in and ends the one it replaces", async () => {
    await createAccount(t.database, "viewer", "fixation@firm.example");
    const first = await signIn(t.app, "fixation@firm.example");
    const again = await first.request("POST", AUTH_PATHS.session, {
      email: "fixation@firm.example",
      password: TEST_PASSWORD,
    });
    const second = sessionCookieOf(again);
    expect(second).toBeDefined();
    expect(first.cookie).not.toContain(`console_session=${second}`);
    expect((await first.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
  });

  it("tells the console who is signed in, and nobody once signed out", async () => {
    await createAccount(t.database, "viewer", "out@firm.example");
    const client = await signIn(t.app, "out@firm.example");
    expect((await client.request("GET", AUTH_PATHS.session)).json()).toMatchObject({
      me: { email: "out@firm.example", role: "viewer", secondFactor: false },
    });
    expect((await client.request("DELETE", AUTH_PATHS.session)).statusCode).toBe(204);
    expect((await client.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
  });

  it("signs out everywhere: every session of the account ends, others' stay", async () => {
    await createAccount(t.database, "viewer", "everywhere@firm.example");
    await createAccount(t.database, "viewer", "bystander@firm.example");
    const laptop = await signIn(t.app, "everywhere@firm.example");
    const phone = await signIn(t.app, "everywhere@firm.example");
    const other = await signIn(t.app, "bystander@firm.example");
    expect((await phone.request("DELETE", AUTH_PATHS.sessions)).statusCode).toBe(204);
    expect((await laptop.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
    expect((await phone.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
    expect((await other.request("GET", AUTH_PATHS.session)).json()).toMatchObject({
      me: { email: "bystander@firm.example" },
    });
  });

  it("ends a session that idled past its time-out or reached its absolute end", async () => {
    await createAccount(t.database, "viewer", "timeout@firm.example");
    const idle = await signIn(t.app, "timeout@firm.example");
    const old = await signIn(t.app, "timeout@firm.example");
    const sessionIdOf = async (client: typeof idle) => {
      const [row] = await t.database.db
        .selectFrom("sessions")
        .select("id")
        .orderBy("created_at", "desc")
        .execute();
      return { client, id: row?.id as string };
    };
    const { id: oldId } = await sessionIdOf(old);
    await t.database.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", oldId)
      .execute();
    expect((await old.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });

    const idleMs = t.config.SESSION_IDLE_MINUTES * 60_000;
    await t.database.db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(Date.now() - idleMs - 1000).toISOString() })
      .where("id", "!=", oldId)
      .execute();
    const refused = await idle.request("DELETE", AUTH_PATHS.session);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ message: AUTH_TEXTS.signedOut });
  });

  it("marks the session cookie Secure over HTTPS", async () => {
    const https = await startApp(engine, { TRUST_PROXY: "127.0.0.1" });
    try {
      await createAccount(https.database, "viewer", "secure@firm.example");
      const client = await anonymous(https.app);
      const response = await https.app.inject({
        method: "POST",
        url: AUTH_PATHS.session,
        headers: {
          cookie: client.cookie,
          "x-xsrf-token": client.token,
          "x-forwarded-proto": "https",
        },
        payload: { email: "secure@firm.example", password: TEST_PASSWORD },
      });
      expect(response.cookies.find((c) => c.name === "console_session")?.secure).toBe(true);
    } finally {
      await https.close();
    }
  });

  describe("password links", () => {
    async function outboxFor(to: string) {
      const rows = await t.database.db.selectFrom("outbox").select(["kind", "message"]).execute();
      return rows
        .map((row) => ({ kind: row.kind, message: JSON.parse(row.message) }))
        .filter(({ message }) => message.to === to);
    }

    it("answers a reset request alike for known and unknown addresses, and mails only the known", async () => {
      await createAccount(t.database, "viewer", "reset@firm.example");
      const client = await anonymous(t.app);
      const known = await client.request("POST", AUTH_PATHS.passwordReset, {
        email: "reset@firm.example",
      });
      const unknown = await client.request("POST", AUTH_PATHS.passwordReset, {
        email: "stranger@firm.example",
      });
      expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
      expect(known.json()).toEqual(unknown.json());
      // The link is queued after the answer.
      await expect.poll(() => outboxFor("reset@firm.example")).toHaveLength(1);
      expect(await outboxFor("stranger@firm.example")).toEqual([]);
      const [mail] = await outboxFor("reset@firm.example");
      expect(mail?.kind).toBe("account-reset");
      const token = /#token=([A-Za-z0-9_-]{43})/.exec(mail?.message.text)?.[1];
      expect(token).toBeDefined();

      const before = await signIn(t.app, "reset@firm.example");
      const set = await client.request("POST", AUTH_PATHS.password, {
        token,
        password: "a brand new passphrase",
      });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ message: AUTH_TEXTS.passwordSet });
      // The old password's sessions end; the new password works; the link is used up.
      expect((await before.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
      await expect(
        signIn(t.app, "reset@firm.example", "a brand new passphrase"),
      ).resolves.toBeDefined();
      const reused = await client.request("POST", AUTH_PATHS.password, {
        token,
        password: "yet another passphrase",
      });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toEqual({ message: AUTH_TEXTS.badLink });
    });

    it("lets an invitation set the first password, once, and refuses short passwords", async () => {
      const { user } = await ensureUser(t.database.db, {
        email: "new@firm.example",
        role: "editor",
      });
      const token = await issueUserToken(t.database.db, user.id, "invite");
      const client = await anonymous(t.app);
      const short = await client.request("POST", AUTH_PATHS.password, { token, password: "short" });
      expect(short.statusCode).toBe(400);
      expect(short.json().fields).toEqual({ password: AUTH_TEXTS.passwordTooShort });
      const results = await Promise.all(
        [1, 2, 3].map((n) =>
          client.request("POST", AUTH_PATHS.password, {
            token,
            password: `passphrase number ${n}`,
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    });

    it("refuses an expired link", async () => {
      const { user } = await ensureUser(t.database.db, {
        email: "late@firm.example",
        role: "viewer",
      });
      const token = await issueUserToken(t.database.db, user.id, "reset");
      await t.database.db
        .updateTable("user_tokens")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("user_id", "=", user.id)
        .execute();
      const client = await anonymous(t.app);
      const response = await client.request("POST", AUTH_PATHS.password, {
        token,
        password: "a perfectly long passphrase",
      });
      expect(response.statusCode).toBe(400);
    });
  });

  it("keeps a client with a made-up session cookie out", async () => {
    const stranger = await anonymous(t.app);
    const forged = clientWith(t.app, `${stranger.cookie}; console_session=forged`, stranger.token);
    const response = await forged.request("DELETE", AUTH_PATHS.sessions);
    expect(response.statusCode).toBe(401);
  });
});
