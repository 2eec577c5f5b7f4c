/**
 * A TOTP code opens the console once: each 30-second step is accepted once
 * per account, whoever sends it and however many at once, and only the
 * current step and the one before it are accepted, never a step to come.
 * The step checks get their clock passed in, so each lands where it means to.
 */
import { generate, generateSecret } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { anonymous, createAccount, TEST_PASSWORD } from "../../../../test/support/console.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../shared/admin/auth.ts";
import { hashToken } from "../../platform/console/tokens.ts";
import { type ConsoleUser, findUserById } from "../../platform/console/users.ts";
import { verifySecondFactor } from "./second-factor.ts";
import { enableSecondFactor, storePendingSecret } from "./totp.ts";

const STEP_MS = 30_000;
/** Ten seconds into a step, so a step back and a step on are whole steps away. */
const start = new Date("2026-11-24T09:00:10.000Z").getTime();
const at = (steps: number) => new Date(start + steps * STEP_MS);
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(at(steps).getTime() / 1000) });

describe.each(SQLITE_ONLY)("TOTP codes on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  /** An account with a second factor, as confirming its set-up leaves it. */
  async function withSecondFactor(email: string): Promise<{ user: ConsoleUser; secret: string }> {
    const { id } = await createAccount(t.database, "editor", email);
    const secret = generateSecret();
    await storePendingSecret(t.database.db, id, secret);
    await enableSecondFactor(t.database.db, id, secret, [hashToken("RECOVERY1")]);
    return { user: (await findUserById(t.database.db, id)) as ConsoleUser, secret };
  }

  it("accepts a step's code once", async () => {
    const { user, secret } = await withSecondFactor("once@firm.example");
    const code = await codeAt(secret, 0);
    expect(await verifySecondFactor(t.database.db, user, code, at(0))).toBe(true);
    expect(await verifySecondFactor(t.database.db, user, code, at(0))).toBe(false);
  });

  it("accepts the previous step's code once, and not after the current step's", async () => {
    const { user, secret } = await withSecondFactor("previous@firm.example");
    const previous = await codeAt(secret, -1);
    expect(await verifySecondFactor(t.database.db, user, previous, at(0))).toBe(true);
    expect(await verifySecondFactor(t.database.db, user, previous, at(0))).toBe(false);

    const { user: other, secret: otherSecret } = await withSecondFactor("later@firm.example");
    expect(
      await verifySecondFactor(t.database.db, other, await codeAt(otherSecret, 0), at(0)),
    ).toBe(true);
    const older = await codeAt(otherSecret, -1);
    expect(await verifySecondFactor(t.database.db, other, older, at(0))).toBe(false);
  });

  it("refuses the next step's code and one two steps old", async () => {
    const { user, secret } = await withSecondFactor("window@firm.example");
    expect(await verifySecondFactor(t.database.db, user, await codeAt(secret, 1), at(0))).toBe(
      false,
    );
    expect(await verifySecondFactor(t.database.db, user, await codeAt(secret, -2), at(0))).toBe(
      false,
    );
  });

  it("accepts one of five checks of the same code at once", async () => {
    const { user, secret } = await withSecondFactor("parallel@firm.example");
    const code = await codeAt(secret, 0);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => verifySecondFactor(t.database.db, user, code, at(0))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  describe("at sign-in", () => {
    async function signInWith(email: string, code: string) {
      const client = await anonymous(t.app);
      return t.app.inject({
        method: "POST",
        url: AUTH_PATHS.session,
        headers: { cookie: client.cookie, "x-xsrf-token": client.token },
        payload: { email, password: TEST_PASSWORD, code },
      });
    }

    it("refuses a code used already", async () => {
      const { secret } = await withSecondFactor("replay@firm.example");
      const code = await generate({ secret });
      expect((await signInWith("replay@firm.example", code)).statusCode).toBe(200);
      const replayed = await signInWith("replay@firm.example", code);
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json()).toEqual({ message: AUTH_TEXTS.wrongCode, secondFactor: true });
    });

    it("opens one session for a code sent three times at once", async () => {
      const { secret } = await withSecondFactor("replay-parallel@firm.example");
      const code = await generate({ secret });
      const responses = await Promise.all(
        [1, 2, 3].map(() => signInWith("replay-parallel@firm.example", code)),
      );
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
    });
  });
});
