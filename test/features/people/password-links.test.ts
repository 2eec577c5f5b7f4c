/**
 * A password link is good only while the password it would set is the one
 * the account still has to choose: setting a password, by any link or from
 * the console, revokes every other outstanding link of that account, so a
 * link read from an old mail or a shared screen opens nothing afterwards.
 * A mangled link is refused in the words a used one gets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueUserToken } from "../../../src/server/features/people/index.ts";
import { ensureUser } from "../../../src/server/platform/console/users.ts";
import { ACCOUNT_PATHS } from "../../../src/shared/admin/account.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { anonymous, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

describe.each(SQLITE_ONLY)("password links on $engine", (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  async function followPasswordLink(token: string, password: string) {
    const client = await anonymous(t.app);
    return client.request("POST", AUTH_PATHS.password, { token, password });
  }

  it("refuses a mangled link in the same words as a used one, with no request jargon", async () => {
    const mangled = await followPasswordLink("not-a-token", "a passphrase for nobody");
    expect(mangled.statusCode).toBe(400);
    expect(mangled.json()).toEqual({
      message: AUTH_TEXTS.badLink,
      fields: { token: AUTH_TEXTS.badLink },
    });
    // Two reasons written as sentences are said one after the other.
    const both = await followPasswordLink("not-a-token", "short");
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({
      message: `${AUTH_TEXTS.badLink} ${AUTH_TEXTS.passwordTooShort}`,
    });
  });

  it("revokes an older reset link once a newer one has set the password", async () => {
    const user = await createAccount(t.database, "viewer", "two-links@firm.example");
    const first = await issueUserToken(t.database.db, user.id, "reset");
    const second = await issueUserToken(t.database.db, user.id, "reset");
    expect((await followPasswordLink(second, "the owner's new passphrase")).statusCode).toBe(200);

    const late = await followPasswordLink(first, "an attacker's passphrase");
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ message: AUTH_TEXTS.badLink });
    await expect(signIn(t.app, user.email, "an attacker's passphrase")).rejects.toThrow(/401/);
    await expect(signIn(t.app, user.email, "the owner's new passphrase")).resolves.toBeDefined();
  });

  it("revokes every outstanding link when the password is changed in the console", async () => {
    const user = await createAccount(t.database, "editor", "changer@firm.example");
    const reset = await issueUserToken(t.database.db, user.id, "reset");
    const invite = await issueUserToken(t.database.db, user.id, "invite");
    const owner = await signIn(t.app, user.email);
    const changed = await owner.request("PUT", ACCOUNT_PATHS.password, {
      currentPassword: "correct horse battery staple",
      newPassword: "a passphrase changed in the console",
    });
    expect(changed.statusCode).toBe(200);

    for (const token of [reset, invite]) {
      const late = await followPasswordLink(token, "an attacker's passphrase");
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({ message: AUTH_TEXTS.badLink });
    }
  });

  it("revokes the first invitation once a re-sent one has set the password", async () => {
    const { user } = await ensureUser(t.database.db, {
      email: "invited-twice@firm.example",
      role: "editor",
    });
    const firstInvitation = await issueUserToken(t.database.db, user.id, "invite");
    const resent = await issueUserToken(t.database.db, user.id, "invite");
    expect((await followPasswordLink(resent, "the invitee's own passphrase")).statusCode).toBe(200);
    expect((await followPasswordLink(firstInvitation, "an attacker's passphrase")).statusCode).toBe(
      400,
    );
  });

  it("leaves other accounts' links alone", async () => {
    const one = await createAccount(t.database, "viewer", "one@firm.example");
    const other = await createAccount(t.database, "viewer", "other@firm.example");
    const othersLink = await issueUserToken(t.database.db, other.id, "reset");
    const onesLink = await issueUserToken(t.database.db, one.id, "reset");
    expect((await followPasswordLink(onesLink, "one's new passphrase")).statusCode).toBe(200);
    expect((await followPasswordLink(othersLink, "other's new passphrase")).statusCode).toBe(200);
  });
});
