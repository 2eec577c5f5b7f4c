/**
 * Each person's own account (second factor): TOTP set up (its link also
 * drawn as a QR code) and confirmed with a code, then asked for at sign-in; recovery codes that
 * work once; the owner's requirement that keeps everyone without a second
 * factor at the enrolment until they have one; a new password that ends
 * every other session.
 */
import { generate } from "otplib";
import QRCode from "qrcode";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TOTP_QR_OPTIONS } from "../../../src/server/features/people/index.ts";
import { hashToken } from "../../../src/server/platform/console/tokens.ts";
import {
  ACCOUNT_PATHS,
  ACCOUNT_TEXTS,
  RECOVERY_CODE_COUNT,
} from "../../../src/shared/admin/account.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { PEOPLE_PATHS, PEOPLE_TEXTS } from "../../../src/shared/admin/people.ts";
import { lastAuditId, startApp, type TestApp } from "../../support/app.ts";
import {
  anonymous,
  type ConsoleClient,
  createAccount,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
} from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";

/**
 * Reads a QR code's dark modules back out of the SVG the qrcode package draws
 * (one square viewBox, a quiet zone all round, dark runs as `M x y`, `m dx 0`
 * and `h length` on each row's centre line), one boolean per module, row by
 * row: what a scanner would see, to compare with what the link encodes.
 */
function modulesOfSvg(svg: string): { size: number; dark: boolean[] } {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const runs = /<path stroke="#000000" d="([^"]*)"\/>/.exec(svg)?.[1] ?? "";
  const margin = TOTP_QR_OPTIONS.margin;
  const size = side - 2 * margin;
  const dark = new Array<boolean>(size * size).fill(false);
  let x = 0;
  let y = 0;
  for (const [, command, a, b] of runs.matchAll(/([Mmh])([\d.]+)(?: ([\d.]+))?/g)) {
    if (command === "M") {
      x = Number(a) - margin;
      y = Number(b) - 0.5 - margin;
    } else if (command === "m") {
      x += Number(a);
    } else {
      for (let end = x + Number(a); x < end; x++) dark[y * size + x] = true;
    }
  }
  return { size, dark };
}

describe.each(ENGINES)("your account on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  async function attemptSignIn(email: string, code?: string) {
    const client = await anonymous(t.app);
    return client.request("POST", AUTH_PATHS.session, {
      email,
      password: TEST_PASSWORD,
      ...(code === undefined ? {} : { code }),
    });
  }

  /** Sets up TOTP through the routes; the secret and the recovery codes it showed. */
  async function enrol(client: ConsoleClient) {
    const started = await client.request("POST", ACCOUNT_PATHS.secondFactor);
    expect(started.statusCode).toBe(200);
    const { secret, uri } = started.json() as { secret: string; uri: string };
    const confirmed = await client.request("POST", ACCOUNT_PATHS.secondFactorConfirm, {
      code: await generate({ secret }),
    });
    expect(confirmed.statusCode).toBe(200);
    return { secret, uri, recoveryCodes: confirmed.json().recoveryCodes as string[] };
  }

  it("sets up TOTP with a code from the app; sign-in then needs a code, and a recovery code works once", async () => {
    await createAccount(t.database, "editor", "totp@firm.example");
    const client = await signIn(t.app, "totp@firm.example");

    const started = await client.request("POST", ACCOUNT_PATHS.secondFactor);
    const { secret, uri } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*totp%40firm\.example\?.*secret=/);
    expect(uri).toContain(`secret=${secret}`);
    // Unconfirmed, the secret changes nothing at sign-in.
    expect((await attemptSignIn("totp@firm.example")).statusCode).toBe(200);

    const wrong = await client.request("POST", ACCOUNT_PATHS.secondFactorConfirm, {
      code: "000000",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ code: ACCOUNT_TEXTS.wrongCode });

    const confirmed = await client.request("POST", ACCOUNT_PATHS.secondFactorConfirm, {
      code: await generate({ secret }),
    });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes, me } = confirmed.json();
    expect(me).toMatchObject({ email: "totp@firm.example", secondFactor: true });
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    const stored = await t.database.db
      .selectFrom("recovery_codes")
      .innerJoin("users", "users.id", "recovery_codes.user_id")
      .select("code_hash")
      .where("users.email", "=", "totp@firm.example")
      .execute();
    expect(stored.map((row) => row.code_hash).sort()).toEqual(
      recoveryCodes.map((code: string) => hashToken(code.replace(/-/g, ""))).sort(),
    );

    const withoutCode = await attemptSignIn("totp@firm.example");
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json()).toEqual({ message: AUTH_TEXTS.codeNeeded, secondFactor: true });
    expect(sessionCookieOf(withoutCode)).toBeUndefined();
    const withCode = await attemptSignIn("totp@firm.example", await generate({ secret }));
    expect(withCode.statusCode).toBe(200);
    expect(sessionCookieOf(withCode)).toBeDefined();

    const recovery = recoveryCodes[0].toLowerCase();
    expect((await attemptSignIn("totp@firm.example", recovery)).statusCode).toBe(200);
    const reused = await attemptSignIn("totp@firm.example", recovery);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ secondFactor: true });
    expect((await client.request("GET", ACCOUNT_PATHS.account)).json()).toMatchObject({
      secondFactor: true,
      recoveryCodesLeft: RECOVERY_CODE_COUNT - 1,
    });
  });

  it("answers the set-up with its otpauth:// link drawn as an SVG QR code", async () => {
    await createAccount(t.database, "editor", "qr@firm.example");
    const client = await signIn(t.app, "qr@firm.example");

    const started = await client.request("POST", ACCOUNT_PATHS.secondFactor);
    expect(started.statusCode).toBe(200);
    const { uri, qrSvg } = started.json() as { uri: string; qrSvg: string };
    expect(qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
    expect(qrSvg).not.toMatch(/<script|<foreignObject|href=|on\w+=/i);
    expect(qrSvg).toBe(await QRCode.toString(uri, TOTP_QR_OPTIONS));
    // Read back, its modules are exactly those of this link, not of another set-up's.
    const { modules } = QRCode.create(uri, {
      errorCorrectionLevel: TOTP_QR_OPTIONS.errorCorrectionLevel,
    });
    expect(modulesOfSvg(qrSvg)).toEqual({
      size: modules.size,
      dark: Array.from(modules.data, (module) => module === 1),
    });
    const again = (await client.request("POST", ACCOUNT_PATHS.secondFactor)).json();
    expect(again.uri).not.toBe(uri);
    expect(modulesOfSvg(again.qrSvg)).not.toEqual(modulesOfSvg(qrSvg));
  });

  it("refuses a second set-up while the second factor is on", async () => {
    await createAccount(t.database, "viewer", "twice-totp@firm.example");
    const client = await signIn(t.app, "twice-totp@firm.example");
    await enrol(client);
    const again = await client.request("POST", ACCOUNT_PATHS.secondFactor);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: ACCOUNT_TEXTS.alreadyEnabled });
  });

  it("turns the second factor off with the password or a current code, not with a guess", async () => {
    await createAccount(t.database, "viewer", "off@firm.example");
    const client = await signIn(t.app, "off@firm.example");
    const { secret } = await enrol(client);
    const guess = await client.request("DELETE", ACCOUNT_PATHS.secondFactor, {
      confirmation: "a wrong guess at it",
    });
    expect(guess.statusCode).toBe(400);
    expect(guess.json().fields).toEqual({ confirmation: ACCOUNT_TEXTS.notConfirmed });

    const byCode = await client.request("DELETE", ACCOUNT_PATHS.secondFactor, {
      confirmation: await generate({ secret }),
    });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().me).toMatchObject({ secondFactor: false });
    expect((await attemptSignIn("off@firm.example")).statusCode).toBe(200);

    await enrol(client);
    const byPassword = await client.request("DELETE", ACCOUNT_PATHS.secondFactor, {
      confirmation: TEST_PASSWORD,
    });
    expect(byPassword.statusCode).toBe(200);
    const actions = await t.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("actor", "=", "off@firm.example")
      .where("action", "like", "second-factor-%")
      .orderBy("id")
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      "second-factor-enabled",
      "second-factor-off-refused",
      "second-factor-disabled",
      "second-factor-enabled",
      "second-factor-disabled",
    ]);
  });

  it("changes the password: the current one is checked, every other session ends", async () => {
    await createAccount(t.database, "viewer", "newpass@firm.example");
    const here = await signIn(t.app, "newpass@firm.example");
    const elsewhere = await signIn(t.app, "newpass@firm.example");

    const wrong = await here.request("PUT", ACCOUNT_PATHS.password, {
      currentPassword: "not my password",
      newPassword: "a fresh and long passphrase",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ currentPassword: ACCOUNT_TEXTS.wrongPassword });
    expect((await elsewhere.request("GET", AUTH_PATHS.session)).json().me).not.toBeNull();

    const changed = await here.request("PUT", ACCOUNT_PATHS.password, {
      currentPassword: TEST_PASSWORD,
      newPassword: "a fresh and long passphrase",
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ message: ACCOUNT_TEXTS.passwordChanged });
    expect((await elsewhere.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
    expect((await here.request("GET", AUTH_PATHS.session)).json().me).toMatchObject({
      email: "newpass@firm.example",
    });
    expect((await attemptSignIn("newpass@firm.example")).statusCode).toBe(401);
    await expect(
      signIn(t.app, "newpass@firm.example", "a fresh and long passphrase"),
    ).resolves.toBeDefined();
  });

  it("lists the account's live sessions and marks this one", async () => {
    await createAccount(t.database, "viewer", "sessions@firm.example");
    const here = await signIn(t.app, "sessions@firm.example");
    await signIn(t.app, "sessions@firm.example");
    const { sessions } = (await here.request("GET", ACCOUNT_PATHS.account)).json();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ ip: "127.0.0.1", lastSeenAt: expect.any(String) });
  });

  describe("when the owner requires a second factor", () => {
    // Each test has an owner of its own, with no second factor yet, and
    // starts with the requirement off: what one test turns on is turned
    // off again, whatever order the tests run in.
    let ownerCount = 0;
    let ownerEmail: string;
    let owner: ConsoleClient;
    /** The last audit entry before the test, so it sees only the entries it wrote. */
    let auditBefore: number;
    beforeEach(async () => {
      ownerCount += 1;
      ownerEmail = `require-owner-${ownerCount}@firm.example`;
      await createAccount(t.database, "owner", ownerEmail);
      owner = await signIn(t.app, ownerEmail);
      auditBefore = await lastAuditId(t.database);
    });
    afterEach(async () => {
      const off = await owner.request("PUT", PEOPLE_PATHS.secondFactorSetting, {
        required: false,
      });
      expect(off.statusCode).toBe(200);
    });

    it("cannot be switched on by an owner who has no second factor", async () => {
      const response = await owner.request("PUT", PEOPLE_PATHS.secondFactorSetting, {
        required: true,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: PEOPLE_TEXTS.ownSecondFactorFirst });
    });

    it("keeps people without one at the enrolment until they have one", async () => {
      await enrol(owner);
      const on = await owner.request("PUT", PEOPLE_PATHS.secondFactorSetting, { required: true });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toEqual({ required: true });
      expect((await owner.request("GET", PEOPLE_PATHS.people)).statusCode).toBe(200);

      await createAccount(t.database, "owner", "late-owner@firm.example");
      const late = await signIn(t.app, "late-owner@firm.example");
      expect((await late.request("GET", AUTH_PATHS.session)).json().me).toMatchObject({
        mustEnrolSecondFactor: true,
      });
      for (const [method, url, payload] of [
        ["GET", PEOPLE_PATHS.people],
        [
          "PUT",
          ACCOUNT_PATHS.password,
          { currentPassword: TEST_PASSWORD, newPassword: "x".repeat(20) },
        ],
      ] as const) {
        const blocked = await late.request(method, url, payload);
        expect({ url, status: blocked.statusCode }).toEqual({ url, status: 403 });
        expect(blocked.json()).toEqual({ message: AUTH_TEXTS.secondFactorFirst });
      }
      expect((await late.request("GET", ACCOUNT_PATHS.account)).json()).toMatchObject({
        secondFactor: false,
        secondFactorRequired: true,
      });

      const { secret } = await enrol(late);
      expect((await late.request("GET", PEOPLE_PATHS.people)).statusCode).toBe(200);
      const off = await late.request("DELETE", ACCOUNT_PATHS.secondFactor, {
        confirmation: await generate({ secret }),
      });
      expect(off.statusCode).toBe(409);
      expect(off.json()).toEqual({ message: ACCOUNT_TEXTS.requiredByOwner });

      const audit = await t.database.db
        .selectFrom("audit_log")
        .select(["actor", "detail"])
        .where("action", "=", "second-factor-requirement")
        .where("id", ">", auditBefore)
        .execute();
      expect(audit).toEqual([{ actor: ownerEmail, detail: JSON.stringify({ required: true }) }]);
    });
  });
});
