/**
 * People and audit: the owner invites by e-mail (the
 * link sets the first password), re-sends, changes roles and removes people;
 * the console never loses its last owner, even under parallel requests; the
 * audit log records it all and can be searched. Nobody but an owner gets in.
 */
import escapeHtml from "escape-html";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_PAGE_SIZE, AUDIT_PATH } from "../../../src/shared/admin/audit-log.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import {
  invitationPath,
  PEOPLE_PATHS,
  PEOPLE_TEXTS,
  type Person,
  personPath,
} from "../../../src/shared/admin/people.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { unwrapped } from "../../support/mail-text.ts";

const NEW_PASSWORD = "a passphrase of my own choosing";

const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

interface QueuedMail {
  subject: string;
  text: string;
  html: string;
}

/** Each of `sentences` in the mail's text part and, as rendered, in its HTML part. */
function expectInBothParts(mail: QueuedMail | undefined, sentences: string[]) {
  for (const sentence of sentences) {
    expect(unwrapped(mail?.text)).toContain(sentence);
    expect(mail?.html).toContain(asHtml(sentence));
  }
}

describe.each(ENGINES)("people and audit on $engine", (engine) => {
  let t: TestApp;
  let owner: ConsoleClient;
  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "owner", "boss@firm.example");
    await nameAccount("boss@firm.example", "Noor Haddad");
    owner = await signIn(t.app, "boss@firm.example");
  });
  afterAll(() => t.close());

  async function nameAccount(email: string, name: string) {
    await t.database.db.updateTable("users").set({ name }).where("email", "=", email).execute();
  }

  async function invitationsTo(email: string): Promise<QueuedMail[]> {
    const rows = await t.database.db
      .selectFrom("outbox")
      .select(["id", "message"])
      .where("kind", "=", "account-invite")
      .orderBy("id")
      .execute();
    return rows
      .map((row) => JSON.parse(row.message) as QueuedMail & { to: string })
      .filter((message) => message.to === email);
  }

  const tokenIn = (text: string | undefined) => /#token=([A-Za-z0-9_-]{43})/.exec(text ?? "")?.[1];

  async function auditOf(action: string, target: string) {
    const rows = await t.database.db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", action)
      .where("target", "=", target)
      .execute();
    return rows.map((row) => ({ actor: row.actor, detail: JSON.parse(row.detail ?? "null") }));
  }

  async function invite(email: string, role = "editor") {
    const response = await owner.request("POST", PEOPLE_PATHS.people, {
      email,
      name: "Someone New",
      role,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as Person;
  }

  it("invites: an account without a password, one mail whose link sets it, then sign-in works", async () => {
    const person = await invite("Newcomer@Firm.example");
    expect(person).toMatchObject({ email: "newcomer@firm.example", role: "editor", invited: true });
    const row = await t.database.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();

    const mails = await invitationsTo("newcomer@firm.example");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Noor Haddad invited you to the Meridian website console");
    expectInBothParts(mails[0], [
      "Noor Haddad (boss@firm.example) invited you to the console of Meridian Consulting Group's website, as an editor.",
      "An editor reads inquiries and subscribers, and edits the site's content.",
      "The link works once, within seven days.",
    ]);
    const token = tokenIn(mails[0]?.text);
    expect(token).toBeDefined();
    const stranger = await anonymous(t.app);
    const set = await stranger.request("POST", AUTH_PATHS.password, {
      token,
      password: NEW_PASSWORD,
    });
    expect(set.statusCode).toBe(200);
    const newcomer = await signIn(t.app, "newcomer@firm.example", NEW_PASSWORD);
    expect((await newcomer.request("GET", AUTH_PATHS.session)).json()).toMatchObject({
      me: { email: "newcomer@firm.example", role: "editor" },
    });

    const listed = (await owner.request("GET", PEOPLE_PATHS.people)).json().people as Person[];
    expect(listed.find((p) => p.id === person.id)).toMatchObject({
      invited: false,
      lastSignInAt: expect.any(String),
    });
    expect(await auditOf("person-invited", "newcomer@firm.example")).toEqual([
      { actor: "boss@firm.example", detail: { role: "editor" } },
    ]);
  });

  it("refuses to invite an address that has an account, and sends nothing", async () => {
    await invite("twice@firm.example");
    const again = await owner.request("POST", PEOPLE_PATHS.people, {
      email: "twice@firm.example",
      name: "Twice",
      role: "viewer",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: PEOPLE_TEXTS.alreadyInvited });
    expect(await invitationsTo("twice@firm.example")).toHaveLength(1);
  });

  it("names each refused field of an invitation", async () => {
    const response = await owner.request("POST", PEOPLE_PATHS.people, {
      email: "not an address",
      name: "",
      role: "admiral",
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(["email", "name", "role"]);
  });

  it("re-sends an invitation with a new link while no password is set, and only then", async () => {
    const person = await invite("resend@firm.example", "viewer");
    // Another owner re-sends it: the new mail is from them, not from the first inviter.
    await createAccount(t.database, "owner", "second-owner@firm.example");
    await nameAccount("second-owner@firm.example", "Sami Okafor");
    const secondOwner = await signIn(t.app, "second-owner@firm.example");
    const resent = await secondOwner.request("POST", invitationPath(person.id));
    expect(resent.statusCode).toBe(202);
    const mails = await invitationsTo("resend@firm.example");
    expect(mails).toHaveLength(2);
    expect(tokenIn(mails[0]?.text)).not.toBe(tokenIn(mails[1]?.text));
    expect(mails[1]?.subject).toBe("Sami Okafor invited you to the Meridian website console");
    expectInBothParts(mails[1], [
      "Sami Okafor (second-owner@firm.example) invited you to the console of Meridian Consulting Group's website, as a viewer.",
      "A viewer reads inquiries and subscribers.",
      "The link works once, within seven days.",
    ]);
    expect(mails[1]?.text).not.toContain("Noor Haddad");
    expect(await auditOf("invitation-resent", "resend@firm.example")).toHaveLength(1);

    const accepted = await createAccount(t.database, "viewer", "accepted@firm.example");
    const refused = await owner.request("POST", invitationPath(accepted.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: PEOPLE_TEXTS.alreadyAccepted });
  });

  it("changes a role, at once for the person's session, and records from and to", async () => {
    const person = await createAccount(t.database, "editor", "demoted@firm.example");
    const demoted = await signIn(t.app, "demoted@firm.example");
    const response = await owner.request("PATCH", personPath(person.id), { role: "viewer" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: person.id, role: "viewer" });
    expect((await demoted.request("GET", AUTH_PATHS.session)).json()).toMatchObject({
      me: { role: "viewer" },
    });
    expect(await auditOf("role-changed", "demoted@firm.example")).toEqual([
      { actor: "boss@firm.example", detail: { from: "editor", to: "viewer" } },
    ]);
  });

  it("removes a person: their sessions end, and the removal is recorded", async () => {
    const person = await createAccount(t.database, "viewer", "leaver@firm.example");
    const leaver = await signIn(t.app, "leaver@firm.example");
    const response = await owner.request("DELETE", personPath(person.id));
    expect(response.statusCode).toBe(204);
    expect((await leaver.request("GET", AUTH_PATHS.session)).json()).toEqual({ me: null });
    expect(await auditOf("person-removed", "leaver@firm.example")).toEqual([
      { actor: "boss@firm.example", detail: { role: "viewer" } },
    ]);
    const again = await owner.request("DELETE", personPath(person.id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: PEOPLE_TEXTS.notFound });
  });

  it("keeps people, the setting and the audit log from editors and viewers", async () => {
    const target = await createAccount(t.database, "viewer", "target@firm.example");
    const calls: [string, string, unknown?][] = [
      ["GET", PEOPLE_PATHS.people],
      ["POST", PEOPLE_PATHS.people, { email: "x@firm.example", name: "X", role: "owner" }],
      ["POST", invitationPath(target.id)],
      ["PATCH", personPath(target.id), { role: "owner" }],
      ["DELETE", personPath(target.id)],
      ["GET", PEOPLE_PATHS.secondFactorSetting],
      ["PUT", PEOPLE_PATHS.secondFactorSetting, { required: false }],
      ["GET", AUDIT_PATH],
    ];
    for (const role of ["editor", "viewer"] as const) {
      await createAccount(t.database, role, `weak-${role}@firm.example`);
      const client = await signIn(t.app, `weak-${role}@firm.example`);
      for (const [method, url, payload] of calls) {
        const response = await client.request(method, url, payload);
        expect({ role, method, url, status: response.statusCode }).toEqual({
          role,
          method,
          url,
          status: 403,
        });
        expect(response.json()).toEqual({ message: AUTH_TEXTS.roleTooWeak });
      }
    }
    expect((await owner.request("GET", PEOPLE_PATHS.people)).json().people).toContainEqual(
      expect.objectContaining({ email: "target@firm.example", role: "viewer" }),
    );
  });

  describe("the audit log", () => {
    beforeAll(async () => {
      const entries = [
        ["2030-01-01T09:00:00.000Z", "ann@firm.example", "content-changed", "team/ann"],
        ["2030-01-02T09:00:00.000Z", "bob@firm.example", "subscriber-erased", "x@example.com"],
        ["2030-01-03T09:00:00.000Z", "ann@firm.example", "export", "100%_real.csv"],
      ];
      await t.database.db
        .insertInto("audit_log")
        .values(
          entries.map(([at, actor, action, target]) => ({
            at: at as string,
            actor: actor as string,
            action: action as string,
            target: target as string,
            ip: "203.0.113.7",
            user_id: null,
            detail: JSON.stringify({ note: "seeded" }),
          })),
        )
        .execute();
    });

    const search = async (query: string) => {
      const response = await owner.request("GET", `${AUDIT_PATH}?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const targets = (page: { entries: { target: string }[] }) =>
      page.entries.map((entry) => entry.target);
    const seededRange = "from=2030-01-01T00:00:00.000Z&to=2030-02-01T00:00:00.000Z";

    it("lists newest first with who, what, target, when and from where, and the retention", async () => {
      const page = await search(seededRange);
      expect(page).toMatchObject({ total: 3, page: 1, pageSize: AUDIT_PAGE_SIZE });
      expect(page.retentionDays).toBe(t.config.AUDIT_RETENTION_DAYS);
      expect(page.entries[0]).toMatchObject({
        at: "2030-01-03T09:00:00.000Z",
        actor: "ann@firm.example",
        action: "export",
        target: "100%_real.csv",
        ip: "203.0.113.7",
        detail: { note: "seeded" },
      });
      expect(targets(page)).toEqual(["100%_real.csv", "x@example.com", "team/ann"]);
      expect(page.actions).toEqual(expect.arrayContaining(["content-changed", "export"]));
    });

    it("finds text in the actor, the action or the target, ignoring case, % and _ literally", async () => {
      expect(targets(await search(`${seededRange}&q=ANN@`))).toEqual(["100%_real.csv", "team/ann"]);
      expect(targets(await search(`${seededRange}&q=erased`))).toEqual(["x@example.com"]);
      expect(targets(await search(`${seededRange}&q=${encodeURIComponent("0%_r")}`))).toEqual([
        "100%_real.csv",
      ]);
      expect((await search(`${seededRange}&q=${encodeURIComponent("%")}`)).total).toBe(1);
    });

    it("filters by action and by a date range whose end is not included", async () => {
      expect(targets(await search(`${seededRange}&action=export`))).toEqual(["100%_real.csv"]);
      const range = "from=2030-01-02T00:00:00.000Z&to=2030-01-03T09:00:00.000Z";
      expect(targets(await search(range))).toEqual(["x@example.com"]);
      const backwards = await owner.request(
        "GET",
        `${AUDIT_PATH}?from=2030-01-03T00:00:00.000Z&to=2030-01-01T00:00:00.000Z`,
      );
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().fields).toHaveProperty("to");
    });

    it("pages through everything in pages of the page size", async () => {
      const extra = Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, n) => ({
        at: new Date(Date.UTC(2031, 0, 1, 0, n)).toISOString(),
        actor: "pager@firm.example",
        action: "paged",
        target: `item ${n}`,
        ip: null,
        user_id: null,
        detail: null,
      }));
      await t.database.db.insertInto("audit_log").values(extra).execute();
      const first = await search("action=paged");
      const second = await search("action=paged&page=2");
      expect(first.total).toBe(AUDIT_PAGE_SIZE + 5);
      expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
      expect(first.entries[0].target).toBe(`item ${AUDIT_PAGE_SIZE + 4}`);
      expect(targets(second)).toEqual(["item 4", "item 3", "item 2", "item 1", "item 0"]);
    });
  });
});

describe.each(ENGINES)("the last owner on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  async function owners() {
    return t.database.db
      .selectFrom("users")
      .select("email")
      .where("role", "=", "owner")
      .where("password_hash", "is not", null)
      .execute();
  }

  it("is never demoted or removed, by others or by themselves; an invited owner does not count", async () => {
    const only = await createAccount(t.database, "owner", "only@firm.example");
    // The only owner: whoever another test left as an owner is an editor now.
    await t.database.db
      .updateTable("users")
      .set({ role: "editor" })
      .where("id", "!=", only.id)
      .execute();
    expect(await owners()).toEqual([{ email: "only@firm.example" }]);
    const client = await signIn(t.app, "only@firm.example");
    for (const [method, payload] of [["PATCH", { role: "editor" }], ["DELETE"]] as const) {
      const response = await client.request(method, personPath(only.id), payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: PEOPLE_TEXTS.lastOwner });
    }
    const invited = await client.request("POST", PEOPLE_PATHS.people, {
      email: "future-owner@firm.example",
      name: "Future Owner",
      role: "owner",
    });
    expect(invited.statusCode).toBe(201);
    expect((await client.request("DELETE", personPath(only.id))).statusCode).toBe(409);

    await createAccount(t.database, "owner", "future-owner@firm.example");
    const stepDown = await client.request("PATCH", personPath(only.id), { role: "editor" });
    expect(stepDown.statusCode).toBe(200);
    expect(await owners()).toEqual([{ email: "future-owner@firm.example" }]);
  });

  // Each round, two owners demote or remove each other (and sometimes themselves) with
  // 20 requests at once. Were such changes not to take turns on PostgreSQL, both owners
  // would go within a round or two.
  it.each([1, 2, 3, 4, 5])(
    "keeps one of two owners through 20 parallel demotions and removals (round %i)",
    async (round) => {
      const a = await createAccount(t.database, "owner", `race-${round}-a@firm.example`);
      const b = await createAccount(t.database, "owner", `race-${round}-b@firm.example`);
      await t.database.db
        .updateTable("users")
        .set({ role: "editor" })
        .where("id", "not in", [a.id, b.id])
        .execute();
      const clientA = await signIn(t.app, a.email);
      const clientB = await signIn(t.app, b.email);
      const attempts = Array.from({ length: 20 }, (_, n) => {
        const [client, other] = n % 2 === 0 ? [clientA, b] : [clientB, a];
        const victim = n % 5 === 0 ? (other === a ? b : a) : other;
        return n % 3 === 0
          ? client.request("DELETE", personPath(victim.id))
          : client.request("PATCH", personPath(victim.id), { role: "viewer" });
      });
      const statuses = (await Promise.all(attempts)).map((response) => response.statusCode);
      // Once one owner is gone, the other may still change the former owner (200/204);
      // changes to the last owner are refused (409), or their maker is no longer an
      // owner (403) or no longer exists (401).
      expect(
        statuses.filter((s) => ![200, 204, 401, 403, 404, 409].includes(s)),
        t.logs.filter((l) => l.includes("unexpected")).join("\n"),
      ).toEqual([]);
      expect(statuses).toContain(409);
      expect(await owners()).toHaveLength(1);
    },
  );
});
