/**
 * The console's mail settings: owners only; every refusal names its field;
 * a save is audited with it and refused on a stale version; a setting never
 * saved follows the environment, a saved one overrides it and going back
 * restores it; a save through one instance is used by the other instance's
 * very next mail; the test mail reaches the owner with the new From. On
 * both engines, with a real SMTP sink.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MAIL_SETTINGS_PATHS,
  MAIL_SETTINGS_TEXTS,
  type MailSettingsAnswer,
  type MailSettingsSave,
  WELCOME_TEXT_MAX,
} from "../../../src/shared/admin/mail-settings.ts";
import { NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import {
  lastAuditId,
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { mailTo } from "../../support/mail-env.ts";
import { unwrapped } from "../../support/mail-text.ts";
import { newsletterDraft } from "../../support/newsletter.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ENV = {
  MAIL_FROM: '"Env Firm" <env@firm.example>',
  INQUIRY_TO: "env-inbox@firm.example",
  NEWSLETTER_RATE_PER_SECOND: "7",
};

/** A save that leaves every setting to the environment. */
const NOTHING: Omit<MailSettingsSave, "version"> = {
  senderName: null,
  senderAddress: null,
  inquiryTo: null,
  newsletterRate: null,
  doubleOptIn: null,
  welcomeText: null,
};

const CONSOLE_SETTINGS: Omit<MailSettingsSave, "version"> = {
  senderName: "Meridian, Partners",
  senderAddress: "partners@firm.example",
  inquiryTo: ["first@firm.example", "second@firm.example"],
  newsletterRate: 3,
  doubleOptIn: true,
  welcomeText: "Hello from **the partners**.\n\nRead us monthly.",
};

describe.each(ENGINES)("console mail settings on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  /** A second instance on the same database, with its own outbox sender. */
  let other: TestApp;
  let owner: ConsoleClient;
  let editor: ConsoleClient;
  let visitor: Session;
  let otherVisitor: Session;
  let auditBefore: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine, mailTo(smtp.url, ENV));
    const database: Record<string, string> = t.config.DATABASE_URL
      ? { DATABASE_URL: t.config.DATABASE_URL }
      : { SQLITE_FILE: t.config.SQLITE_FILE };
    other = await startApp(engine, mailTo(smtp.url, { ...ENV, ...database }));
    await createAccount(t.database, "owner");
    await createAccount(t.database, "editor");
    owner = await signIn(t.app, "owner@firm.example");
    editor = await signIn(t.app, "editor@firm.example");
    visitor = await openSession(t.app);
    otherVisitor = await openSession(other.app);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
    await smtp.close();
  });

  beforeEach(async () => {
    await t.database.db.deleteFrom("mail_settings").execute();
    auditBefore = await lastAuditId(t.database);
  });
  afterEach(() => {
    smtp.received.length = 0;
  });

  const read = async () =>
    (await owner.request("GET", MAIL_SETTINGS_PATHS.settings)).json() as MailSettingsAnswer;
  const save = (settings: Omit<MailSettingsSave, "version">, version: number) =>
    owner.request("PUT", MAIL_SETTINGS_PATHS.settings, { ...settings, version });
  const newAudit = () =>
    t.database.db
      .selectFrom("audit_log")
      .select(["action", "target", "detail"])
      .where("id", ">", auditBefore)
      .orderBy("id")
      .execute();

  /** Sends an inquiry through `app` and returns the notifications it caused, by recipient. */
  async function notifications(app: TestApp["app"], session: Session, recipients: string[]) {
    const answer = await post(app, session, "/api/v1/send-comment", VALID_INQUIRY);
    expect(answer.statusCode).toBe(200);
    const mails = [];
    for (const to of recipients) {
      const [mail] = await smtp.waitForMailTo(to);
      if (!mail) throw new Error(`no notification reached ${to}`);
      mails.push(mail);
    }
    return mails;
  }

  it("shows the environment's values while nothing is saved", async () => {
    expect(await read()).toEqual({
      version: 0,
      updatedAt: null,
      saved: NOTHING,
      defaults: {
        senderName: "Env Firm",
        senderAddress: "env@firm.example",
        inquiryTo: ["env-inbox@firm.example"],
        newsletterRate: 7,
        doubleOptIn: false,
      },
    });
  });

  it("refuses each wrong value with a message by its field, and saves nothing", async () => {
    const cases: [Partial<MailSettingsSave>, string, string][] = [
      [{ senderName: "Firm", senderAddress: "not an address" }, "senderAddress", "not an address"],
      [
        { senderName: "Firm", senderAddress: null },
        "senderAddress",
        MAIL_SETTINGS_TEXTS.senderHalf,
      ],
      [{ inquiryTo: [] }, "inquiryTo", MAIL_SETTINGS_TEXTS.noRecipient],
      [
        { inquiryTo: Array.from({ length: 11 }, (_, i) => `p${i}@firm.example`) },
        "inquiryTo",
        MAIL_SETTINGS_TEXTS.tooManyRecipients,
      ],
      [
        { inquiryTo: ["a@firm.example", "A@firm.example"] },
        "inquiryTo",
        MAIL_SETTINGS_TEXTS.repeatedRecipient("A@firm.example"),
      ],
      [{ inquiryTo: ["a@firm.example", "nobody"] }, "inquiryTo", "nobody is not a valid"],
      [{ newsletterRate: 0 }, "newsletterRate", MAIL_SETTINGS_TEXTS.rate],
      [{ newsletterRate: 10_001 }, "newsletterRate", MAIL_SETTINGS_TEXTS.rate],
      [{ newsletterRate: 2.5 }, "newsletterRate", MAIL_SETTINGS_TEXTS.rate],
      [
        { welcomeText: "x".repeat(WELCOME_TEXT_MAX + 1) },
        "welcomeText",
        MAIL_SETTINGS_TEXTS.welcomeTooLong,
      ],
    ];
    for (const [change, field, said] of cases) {
      const response = await save({ ...NOTHING, ...change }, 0);
      expect(response.statusCode, field).toBe(400);
      const { fields } = response.json() as { fields: Record<string, string> };
      expect(fields[field], JSON.stringify(change)).toContain(said);
    }
    expect((await read()).version).toBe(0);
    expect(await newAudit()).toEqual([]);
  });

  it("is for owners alone: an editor is refused every route", async () => {
    expect((await editor.request("GET", MAIL_SETTINGS_PATHS.settings)).statusCode).toBe(403);
    const put = await editor.request("PUT", MAIL_SETTINGS_PATHS.settings, {
      ...CONSOLE_SETTINGS,
      version: 0,
    });
    expect(put.statusCode).toBe(403);
    expect((await editor.request("POST", MAIL_SETTINGS_PATHS.testMail, {})).statusCode).toBe(403);
    expect((await read()).version).toBe(0);
  });

  it("audits each save with what changed, and refuses a save on a version someone else saved over", async () => {
    const first = await save(CONSOLE_SETTINGS, 0);
    expect(first.statusCode).toBe(200);
    expect((first.json() as MailSettingsAnswer).saved).toEqual({
      ...CONSOLE_SETTINGS,
      welcomeText: "Hello from **the partners**.\n\nRead us monthly.",
    });
    const second = await save({ ...CONSOLE_SETTINGS, newsletterRate: 4 }, 1);
    expect((second.json() as MailSettingsAnswer).version).toBe(2);
    // Both saves loaded nothing (version 0) or version 1: they are stale now.
    for (const stale of [0, 1]) {
      const refused = await save({ ...CONSOLE_SETTINGS, newsletterRate: 9 }, stale);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: MAIL_SETTINGS_TEXTS.stale });
    }
    expect((await read()).saved.newsletterRate).toBe(4);
    const entries = await newAudit();
    expect(entries.map(({ action, target }) => [action, target])).toEqual([
      ["mail-settings-saved", "mail-settings"],
      ["mail-settings-saved", "mail-settings"],
    ]);
    expect(JSON.parse(String(entries[0]?.detail))).toEqual({
      changed: ["sender", "inquiryTo", "newsletterRate", "doubleOptIn", "welcomeText"],
      version: 1,
    });
    expect(JSON.parse(String(entries[1]?.detail))).toEqual({
      changed: ["newsletterRate"],
      version: 2,
    });
  });

  it("uses the environment, then the console's settings, then the environment again", async () => {
    const [before] = await notifications(t.app, visitor, [ENV.INQUIRY_TO]);
    expect(before?.parsed.from).toMatchObject({ name: "Env Firm", address: "env@firm.example" });
    smtp.received.length = 0;

    expect((await save(CONSOLE_SETTINGS, 0)).statusCode).toBe(200);
    const overridden = await notifications(t.app, visitor, [
      "first@firm.example",
      "second@firm.example",
    ]);
    for (const mail of overridden) {
      expect(mail.parsed.from).toMatchObject({
        name: "Meridian, Partners",
        address: "partners@firm.example",
      });
      // Each address has a message of its own.
      expect(mail.recipients).toHaveLength(1);
    }
    expect(smtp.received.some((mail) => mail.recipients.includes(ENV.INQUIRY_TO))).toBe(false);
    smtp.received.length = 0;

    const back = await save(NOTHING, 1);
    expect((back.json() as MailSettingsAnswer).saved).toEqual(NOTHING);
    const [after] = await notifications(t.app, visitor, [ENV.INQUIRY_TO]);
    expect(after?.parsed.from).toMatchObject({ name: "Env Firm", address: "env@firm.example" });
  });

  it("is used by another instance's very next mail, with no restart", async () => {
    expect((await save(CONSOLE_SETTINGS, 0)).statusCode).toBe(200);
    // The other instance: its next inquiry goes to the new addresses from the new sender.
    const [mail] = await notifications(other.app, otherVisitor, ["first@firm.example"]);
    expect(mail?.parsed.from?.address).toBe("partners@firm.example");
    await smtp.waitForMailTo("second@firm.example");

    // Double opt-in is on there too: a new subscriber gets the confirmation link, not the welcome.
    const subscribe = (address: string) =>
      post(other.app, otherVisitor, `/api/v1/subscribe?emailId=${encodeURIComponent(address)}`);
    expect((await subscribe("reader@example.com")).statusCode).toBe(201);
    const [confirmation] = await smtp.waitForMailTo("reader@example.com");
    expect(confirmation?.parsed.subject).toBe("Please confirm your subscription to Insight");
    expect(confirmation?.parsed.from?.address).toBe("partners@firm.example");

    // Double opt-in off again: the welcome comes with the firm's own text and its unsubscribe link.
    expect((await save({ ...CONSOLE_SETTINGS, doubleOptIn: false }, 1)).statusCode).toBe(200);
    expect((await subscribe("second-reader@example.com")).statusCode).toBe(201);
    const [welcome] = await smtp.waitForMailTo("second-reader@example.com");
    expect(welcome?.parsed.text).toContain("Hello from the partners.");
    expect(welcome?.parsed.html).toContain("<strong");
    expect(unwrapped(welcome?.parsed.text)).toMatch(/Unsubscribe \[\S+unsubscribe/);
    expect(welcome?.parsed.html).toContain(">Unsubscribe</a>");
    expect(welcome?.parsed.headers.find((h) => h.key === "list-unsubscribe")).toBeDefined();
  });

  it("sends the owner a test mail from the saved sender, through the outbox, audited", async () => {
    expect((await save(CONSOLE_SETTINGS, 0)).statusCode).toBe(200);
    const response = await owner.request("POST", MAIL_SETTINGS_PATHS.testMail, {});
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({
      message: MAIL_SETTINGS_TEXTS.testQueued("owner@firm.example"),
    });
    const [mail] = await smtp.waitForMailTo("owner@firm.example");
    expect(mail?.parsed.subject).toBe("Test mail from the website");
    expect(mail?.parsed.from).toMatchObject({
      name: "Meridian, Partners",
      address: "partners@firm.example",
    });
    expect(mail?.parsed.text).toContain("Inquiries go to: first@firm.example, second@firm.example");
    const queued = await t.database.db
      .selectFrom("outbox")
      .select("kind")
      .where("kind", "=", "mail-settings-test")
      .execute();
    expect(queued.length).toBeGreaterThan(0);
    expect((await newAudit()).map((entry) => entry.action)).toContain("mail-test-sent");
  });

  it("limits test mails to five a minute", async () => {
    // Another test may have sent one within the minute: at most five of six go through.
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await owner.request("POST", MAIL_SETTINGS_PATHS.testMail, {})).statusCode);
    }
    expect(statuses.filter((status) => status === 202).length).toBeLessThanOrEqual(5);
    expect(statuses.at(-1)).toBe(429);
  });

  it("gives a send the rate in force when it is asked for, and keeps it", async () => {
    expect((await save({ ...NOTHING, newsletterRate: 3 }, 0)).statusCode).toBe(200);
    const created = await owner.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("rated"));
    const { id } = created.json() as { id: number };
    // Scheduled for next year: asked for now, sent later.
    const at = new Date(Date.now() + 365 * 24 * 3_600_000).toISOString();
    expect((await owner.request("POST", NEWSLETTER_PATHS.send(id), { at })).statusCode).toBe(200);
    expect((await save(NOTHING, 1)).statusCode).toBe(200);
    const issue = await t.database.db
      .selectFrom("issues")
      .select("rate")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(issue.rate).toBe(3);
  });
});
