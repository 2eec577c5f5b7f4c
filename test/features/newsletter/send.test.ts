/**
 * An issue's send through the console's API, the outbox and a real SMTP
 * server, on both engines: one copy per confirmed, active subscriber with
 * its own unsubscribe link, at the configured rate, and pause, resume and
 * cancel taking effect from the next copy.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HELD_UNTIL } from "../../../src/server/platform/outbox/queue.ts";
import type { IssueDetail } from "../../../src/shared/admin/newsletter.ts";
import { NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, newsletterDraft } from "../../support/newsletter.ts";
import { header, type ReceivedMail, startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
const RATE = 40;
/** The year of a held copy's due time: later than any real one. */
const HELD_YEAR = new Date(HELD_UNTIL).getFullYear();

const recipientOf = (mail: ReceivedMail) => mail.recipients[0] ?? "";

describe.each(ENGINES)("sending an Insight issue on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());
  // Each test its own app and database: who is subscribed, and what the
  // senders are still busy with, are then the test's own. The mail server is
  // shared; each test finds its copies by its issue's subject.
  beforeEach(async () => {
    t = await startApp(
      engine,
      mailTo(smtp.url, { PUBLIC_ORIGIN: ORIGIN, NEWSLETTER_RATE_PER_SECOND: String(RATE) }),
    );
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
  });
  afterEach(() => t.close());

  async function createIssue(slug: string): Promise<IssueDetail> {
    const response = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft(slug));
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function act(path: string, body: object = {}): Promise<IssueDetail> {
    const response = await editor.request("POST", path, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const detail = async (id: number): Promise<IssueDetail> =>
    (await editor.request("GET", NEWSLETTER_PATHS.one(id))).json();

  /**
   * Waits until no copy of the issue is claimed for delivery, then returns how many
   * arrived, which is how many the outbox marks sent. What is left is held or
   * withdrawn, never due, so no sender can take it: nothing more will arrive.
   */
  async function settledCopies(issueId: number, slug: string): Promise<number> {
    const rows = () =>
      t.database.db
        .selectFrom("outbox")
        .select(["status", "locked_until", "next_attempt_at"])
        .where("issue_id", "=", issueId)
        .execute();
    await expect
      .poll(
        async () =>
          (await rows()).filter((row) => row.status === "pending" && row.locked_until !== null)
            .length,
      )
      .toBe(0);
    const settled = await rows();
    const due = settled.filter(
      (row) => row.status === "pending" && new Date(row.next_attempt_at).getFullYear() < HELD_YEAR,
    );
    expect(due).toEqual([]);
    const sent = settled.filter((row) => row.status === "sent").length;
    expect(copiesOf(slug).length).toBe(sent);
    return sent;
  }

  const copiesOf = (slug: string) =>
    smtp.received.filter((mail) => mail.parsed.subject === `Issue ${slug}`);

  it("sends one copy to each confirmed, active subscriber, with its own unsubscribe link", async () => {
    const active = await addSubscribers(t.database, "first", 60);
    const [gone] = await addSubscribers(t.database, "gone", 1, { unsubscribed: true });
    const [unconfirmed] = await addSubscribers(t.database, "pending", 1, { confirmed: false });
    const issue = await createIssue("first");

    const started = await act(NEWSLETTER_PATHS.send(issue.id));
    expect(["scheduled", "queuing", "sending"]).toContain(started.status);
    await expect.poll(() => copiesOf("first").length, { timeout: 20_000 }).toBe(active.length);
    await expect
      .poll(async () => (await detail(issue.id)).progress, { timeout: 10_000 })
      .toMatchObject({ status: "sent", recipients: 60, sent: 60, queued: 0, failed: 0 });

    const copies = copiesOf("first");
    expect(new Set(copies.map(recipientOf))).toEqual(new Set(active));
    expect(copies.map(recipientOf)).not.toContain(gone);
    expect(copies.map(recipientOf)).not.toContain(unconfirmed);
    const links = new Set<string>();
    for (const copy of copies) {
      const link = /<([^>]+)>/.exec(header(copy, "list-unsubscribe") ?? "")?.[1] ?? "";
      expect(link.startsWith(`${ORIGIN}/unsubscribe?token=`)).toBe(true);
      expect(copy.parsed.text).toContain(link);
      expect(copy.parsed.html).toContain(link);
      expect(header(copy, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(header(copy, "list-id")).toBe("Insight <insight.www.firm.example>");
      expect(copy.parsed.text).toContain(`${ORIGIN}/insight/first`);
      links.add(link);
    }
    expect(links.size).toBe(active.length);

    // The one-click POST a mail program makes ends that subscription only.
    const link = new URL([...links][0] ?? "");
    const oneClick = await t.app.inject({
      method: "POST",
      url: `${link.pathname}${link.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    const stillActive = await t.database.db
      .selectFrom("subscriptions")
      .select("email")
      .where("unsubscribed_at", "is", null)
      .where("email", "like", "first-%")
      .execute();
    expect(stillActive).toHaveLength(active.length - 1);
  });

  it("keeps to the configured rate", async () => {
    // Enough readers of its own that the span measures the rate.
    await addSubscribers(t.database, "paced", 100);
    const { count } = await t.database.db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("unsubscribed_at", "is", null)
      .where("confirmed_at", "is not", null)
      .executeTakeFirstOrThrow();
    const expected = Number(count);
    expect(expected).toBeGreaterThan(90);
    const issue = await createIssue("paced");
    await act(NEWSLETTER_PATHS.send(issue.id));
    await expect.poll(() => copiesOf("paced").length, { timeout: 20_000 }).toBe(expected);
    const times = copiesOf("paced").map((mail) => mail.at);
    const spanSeconds = (Math.max(...times) - Math.min(...times)) / 1000;
    // The copies leave one interval apart: never faster than the rate.
    expect(spanSeconds).toBeGreaterThanOrEqual(((expected - 1) / RATE) * 0.95);
  });

  it("does not burst to catch up when its copies are overdue", async () => {
    // Enough readers of its own that many copies are still to go when they fall overdue.
    await addSubscribers(t.database, "overdue", 100);
    const issue = await createIssue("overdue");
    await act(NEWSLETTER_PATHS.send(issue.id));
    await expect.poll(async () => (await detail(issue.id)).progress.queuedAll).toBe(true);
    // As if the senders had stalled for an hour: every copy left is overdue.
    await t.database.db
      .updateTable("outbox")
      .set({ next_attempt_at: new Date(Date.now() - 3_600_000).toISOString() })
      .where("issue_id", "=", issue.id)
      .where("status", "=", "pending")
      .execute();
    const overdueAt = Date.now();
    const { recipients } = (await detail(issue.id)).progress;
    await expect.poll(() => copiesOf("overdue").length, { timeout: 20_000 }).toBe(recipients);
    const times = copiesOf("overdue")
      .map((mail) => mail.at)
      .filter((at) => at >= overdueAt);
    expect(times.length).toBeGreaterThan(50);
    const spanSeconds = (Math.max(...times) - Math.min(...times)) / 1000;
    expect(spanSeconds).toBeGreaterThanOrEqual(((times.length - 1) / RATE) * 0.95);
  });

  it("pauses from the next copy, resumes where it stopped, and cancels what is left", async () => {
    // Enough readers of its own that the send is still going when it is paused.
    await addSubscribers(t.database, "held", 100);
    const issue = await createIssue("paused");
    await act(NEWSLETTER_PATHS.send(issue.id));
    await expect.poll(() => copiesOf("paused").length, { timeout: 10_000 }).toBeGreaterThan(10);
    const paused = await act(NEWSLETTER_PATHS.pause(issue.id));
    expect(paused.status).toBe("paused");
    // A copy already being delivered may still arrive; then nothing more.
    const atPause = await settledCopies(issue.id, "paused");
    expect(atPause).toBeLessThan(99);

    await act(NEWSLETTER_PATHS.resume(issue.id));
    await expect
      .poll(() => copiesOf("paused").length, { timeout: 10_000 })
      .toBeGreaterThan(atPause + 5);
    const cancelled = await act(NEWSLETTER_PATHS.cancel(issue.id));
    expect(cancelled.status).toBe("cancelled");
    const atCancel = await settledCopies(issue.id, "paused");
    expect(new Set(copiesOf("paused").map(recipientOf)).size).toBe(atCancel);

    const { progress } = await detail(issue.id);
    expect(progress).toMatchObject({ status: "cancelled", queued: 0, failed: 0 });
    expect(progress.sent).toBe(atCancel);
    expect(progress.withdrawn).toBe(progress.recipients - atCancel);
  });

  it("refuses to edit, send again or pause what its state does not allow", async () => {
    const issue = await createIssue("states");
    const pause = await editor.request("POST", NEWSLETTER_PATHS.pause(issue.id), {});
    expect(pause.statusCode).toBe(409);
    const past = await editor.request("POST", NEWSLETTER_PATHS.send(issue.id), {
      at: "2020-01-01T00:00:00Z",
    });
    expect(past.statusCode).toBe(400);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await act(NEWSLETTER_PATHS.send(issue.id), { at: later })).status).toBe("scheduled");
    const edit = await editor.request("PUT", NEWSLETTER_PATHS.one(issue.id), {
      ...newsletterDraft("states"),
      version: issue.version,
    });
    expect(edit.statusCode).toBe(409);
    expect((await act(NEWSLETTER_PATHS.unschedule(issue.id))).status).toBe("draft");
    const again = await editor.request("PUT", NEWSLETTER_PATHS.one(issue.id), {
      ...newsletterDraft("states"),
      title: "Issue states, edited",
      version: issue.version,
    });
    expect(again.statusCode, again.body).toBe(200);
    const stale = await editor.request("PUT", NEWSLETTER_PATHS.one(issue.id), {
      ...newsletterDraft("states"),
      version: issue.version,
    });
    expect(stale.statusCode).toBe(409);
    const taken = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("states"));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toHaveProperty("slug");
  });
});
