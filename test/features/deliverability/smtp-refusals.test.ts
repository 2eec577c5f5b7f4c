/**
 * Mail that comes back, through the outbox and a real SMTP server on both
 * engines: every message leaves with its own signed bounce address; a
 * receiving server that refuses a recipient for good (550 5.1.1) makes a
 * hard bounce of it at once, with no retry; the next issue skips the
 * address; a copy whose address was suppressed after queuing is withdrawn;
 * and a suppressed address that subscribes again must confirm first.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordReport } from "../../../src/server/features/deliverability/index.ts";
import { newsletterComposer } from "../../../src/server/features/newsletter/index.ts";
import { outboxIdOfBounceAddress } from "../../../src/server/platform/outbox/bounce-address.ts";
import { signingSecret } from "../../../src/server/platform/security/signing-secret.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";
import {
  header,
  type ReceivedMail,
  startSmtp,
  type TestSmtp,
  UNKNOWN_RECIPIENT_REPLY,
} from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
const BOUNCE_ADDRESS = "bounces@mail.firm.example";
const RATE = 100;

describe.each(SQLITE_ONLY)("reports of refused mail on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let session: Session;
  let readers: string[];
  const gone = ["reader-1@example.com", "reader-3@example.com"];

  beforeAll(async () => {
    smtp = await startSmtp({ unknownRecipients: gone });
  });
  afterAll(() => smtp.close());
  // Each test its own app and database, so who is subscribed or suppressed
  // is the test's own; the mail server is shared, and each test finds its
  // copies by its issue's subject.
  beforeEach(async () => {
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        PUBLIC_ORIGIN: ORIGIN,
        BOUNCE_ADDRESS,
        NEWSLETTER_RATE_PER_SECOND: String(RATE),
      }),
    );
    session = await openSession(t.app);
    readers = await addSubscribers(t.database, "reader", 5);
  });
  afterEach(() => t.close());

  const db = () => t.database.db;
  const copiesOf = (subject: string) =>
    smtp.received.filter((mail) => mail.parsed.subject === subject);
  const outboxRowOf = async (mail: ReceivedMail) => {
    const secret = await signingSecret(db(), undefined);
    const id = outboxIdOfBounceAddress(BOUNCE_ADDRESS, secret, mail.envelopeFrom);
    return db()
      .selectFrom("outbox")
      .innerJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
      .select(["outbox.kind", "outbox.issue_id", "subscriptions.email"])
      .where("outbox.id", "=", id ?? 0)
      .executeTakeFirst();
  };

  it("sends each copy from its own bounce address, suppresses refused recipients at once, and skips them next time", async () => {
    const issue = await scheduleIssue(t.database, "first", RATE, ORIGIN);
    const delivered = readers.filter((email) => !gone.includes(email));
    await expect.poll(() => copiesOf(issue.subject).length).toBe(delivered.length);
    await expect
      .poll(() =>
        db()
          .selectFrom("outbox")
          .select(["status", "attempts"])
          .where("issue_id", "=", issue.id)
          .where("status", "=", "failed")
          .execute(),
      )
      .toEqual([
        { status: "failed", attempts: 1 },
        { status: "failed", attempts: 1 },
      ]);

    const copies = copiesOf(issue.subject);
    expect(copies.flatMap((copy) => copy.recipients).sort()).toEqual(delivered);
    const senders = new Set(copies.map((copy) => copy.envelopeFrom));
    expect(senders.size).toBe(copies.length);
    for (const copy of copies) {
      expect(copy.envelopeFrom).toMatch(/^bounces\+[0-9a-z]+\.[0-9a-f]{20}@mail\.firm\.example$/);
      expect(await outboxRowOf(copy)).toEqual({
        kind: "newsletter",
        issue_id: issue.id,
        email: copy.recipients[0],
      });
      expect(header(copy, "feedback-id")).toBe(
        `issue-${issue.id}:insight:newsletter:www.firm.example`,
      );
    }

    const reports = await db()
      .selectFrom("delivery_reports")
      .innerJoin("suppressions", "suppressions.report_id", "delivery_reports.id")
      .select([
        "delivery_reports.email",
        "kind",
        "status",
        "source",
        "message_kind",
        "issue_id",
        "text",
        "reason",
      ])
      .orderBy("delivery_reports.email")
      .execute();
    expect(reports).toEqual(
      gone.map((email) => ({
        email,
        kind: "hard",
        status: "5.1.1",
        source: "smtp",
        message_kind: "newsletter",
        issue_id: issue.id,
        text: expect.stringContaining(UNKNOWN_RECIPIENT_REPLY),
        reason: "hard-bounce",
      })),
    );

    // The next issue goes only to the addresses not suppressed.
    const next = await scheduleIssue(t.database, "second", RATE, ORIGIN);
    await expect
      .poll(() =>
        db()
          .selectFrom("issues")
          .select(["status", "recipients"])
          .where("id", "=", next.id)
          .executeTakeFirst(),
      )
      .toEqual({ status: "sent", recipients: delivered.length });
    expect(
      copiesOf(next.subject)
        .flatMap((copy) => copy.recipients)
        .sort(),
    ).toEqual(delivered);
  });

  it("withdraws a queued copy whose address was suppressed before its turn", async () => {
    // Due next year: the test composes its copy itself, and nothing else sends it.
    const nextYear = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
    const issue = await scheduleIssue(t.database, "third", RATE, ORIGIN, nextYear);
    const [address] = await addSubscribers(t.database, "late-bouncer", 1);
    const subscription = await db()
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", address ?? "")
      .executeTakeFirstOrThrow();
    const compose = newsletterComposer({
      db: db(),
      from: async () => t.config.MAIL_FROM,
      publicOrigin: ORIGIN,
      signingSecret: "s".repeat(32),
    });
    const claimed = {
      id: 0,
      kind: "newsletter",
      attempts: 1,
      newsletter: { issueId: issue.id, subscriptionId: subscription.id },
      message: { messageId: "<late@firm.example>" },
    };
    expect(await compose(claimed)).toHaveProperty("send");
    await db()
      .insertInto("suppressions")
      .values({
        email: address ?? "",
        reason: "complaint",
        report_id: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(await compose(claimed)).toEqual({ drop: "address suppressed before its turn" });
  });

  it("asks a suppressed address that subscribes again to confirm, and welcomes it once confirmed", async () => {
    // A reader who once pressed "Report spam" comes back through the site.
    const email = "came-back@example.com";
    await recordReport(
      db(),
      {
        email,
        kind: "complaint",
        status: null,
        source: "mailbox",
        sourceKey: null,
        outboxId: null,
        messageKind: "newsletter",
        issueId: null,
        text: "Feedback-Type: abuse",
      },
      { limit: 3, days: 15 },
    );
    const kinds = async () =>
      (await db().selectFrom("outbox").select(["kind", "message"]).orderBy("id").execute())
        .filter((row) => (JSON.parse(row.message) as { to?: unknown }).to === email)
        .map((row) => row.kind);
    const answer = await post(
      t.app,
      session,
      `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
    );
    expect(answer.statusCode).toBe(201);
    // Told what any visitor is told without double opt-in: the answer never
    // says that an address bounced or complained.
    expect(answer.json()).toMatchObject({ confirmationAsked: false });
    expect(await kinds()).toEqual(["subscription-confirmation"]);
    const [mail] = await smtp.waitForMailTo(email);
    const link = /https:\/\/\S+\/subscribe\/confirm\?token=[^\s\]]+/.exec(
      mail?.parsed.text ?? "",
    )?.[0];
    const token = new URL(link ?? "about:blank").searchParams.get("token") ?? "";
    const confirmed = await post(t.app, session, "/api/v1/subscribe/confirm", { token });
    expect(confirmed.json()).toMatchObject({ state: "confirmed" });
    expect(await kinds()).toEqual(["subscription-confirmation", "welcome"]);
    const still = await db()
      .selectFrom("suppressions")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(still).toEqual([]);
  });
});
