/**
 * Pacing of bulk mail per receiving domain, through the outbox and a real
 * SMTP server on both engines: a domain that defers (421) is backed off,
 * exponentially, while the other domains' copies go on, and gets its copies
 * once it takes mail again; a domain with a rate of its own gets its copies
 * no faster; a copy deferred until its last attempt fails and counts as a
 * soft bounce; and mail someone waits for is never held by a domain's wait.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import {
  DEFERRAL_REPLY,
  type DeferringSmtp,
  startDeferringSmtp,
} from "../../support/deferring-smtp.ts";
import { ENGINES } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";

const RATE = 100;
const BACKOFF_BASE_MS = 40;
const BACKOFF_MAX_MS = 640;

describe.each(ENGINES)("pacing per receiving domain on $engine", (engine) => {
  let smtp: DeferringSmtp;
  let t: TestApp;

  async function start(deferred: string[], env: Record<string, string> = {}) {
    smtp = await startDeferringSmtp(deferred);
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        NEWSLETTER_RATE_PER_SECOND: String(RATE),
        DOMAIN_BACKOFF_BASE_MS: String(BACKOFF_BASE_MS),
        DOMAIN_BACKOFF_MAX_MS: String(BACKOFF_MAX_MS),
        OUTBOX_MAX_ATTEMPTS: "1000",
        ...env,
      }),
    );
  }
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const pacing = (domain: string) =>
    t.database.db
      .selectFrom("domain_pacing")
      .select(["next_at", "backoff_level", "updated_at"])
      .where("domain", "=", domain)
      .executeTakeFirst();
  const copies = (issueId: number) =>
    t.database.db
      .selectFrom("outbox")
      .select(["id", "status", "attempts", "domain", "next_attempt_at"])
      .where("issue_id", "=", issueId)
      .orderBy("id")
      .execute();

  it("goes on with other domains while one defers, backs that one off exponentially, and delivers to it once it takes mail again", async () => {
    await start(["gmail.test"]);
    const gmail = await addSubscribers(t.database, "reader", 20, { domain: "gmail.test" });
    const outlook = await addSubscribers(t.database, "reader", 20, { domain: "outlook.test" });
    const issue = await scheduleIssue(t.database, "deferred", RATE);

    // Each copy knows its domain from the moment it is queued.
    await expect.poll(async () => (await copies(issue.id)).length).toBe(40);
    expect(new Set((await copies(issue.id)).map((copy) => copy.domain))).toEqual(
      new Set(["gmail.test", "outlook.test"]),
    );

    await expect
      .poll(
        async () =>
          smtp.arrivedAt("outlook.test").length === 20 &&
          ((await pacing("gmail.test"))?.backoff_level ?? 0) >= 4,
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(smtp.arrivedAt("gmail.test")).toEqual([]);
    expect(
      smtp
        .arrivedAt("outlook.test")
        .map((arrival) => arrival.recipient)
        .sort(),
    ).toEqual([...outlook].sort());
    // gmail.test was tried again only once its wait was over, and each wait
    // was twice the one before, up to the max: a floor on the gaps between
    // its deferrals, as the receiving server saw them (in whole ms, hence
    // the one ms).
    const gaps = smtp.deferrals.slice(1).map((at, index) => at - (smtp.deferrals[index] ?? 0));
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    for (const [index, gap] of gaps.entries()) {
      const wait = Math.min(BACKOFF_BASE_MS * 2 ** index, BACKOFF_MAX_MS);
      expect(gap, `the wait after deferral ${index + 1}`).toBeGreaterThanOrEqual(wait - 1);
    }
    // A deferred copy is due again when its domain's wait ends, not before.
    const waiting = await pacing("gmail.test");
    const pending = (await copies(issue.id)).filter((copy) => copy.status === "pending");
    const retried = pending.filter((copy) => copy.attempts > 0);
    expect(retried.length).toBeGreaterThan(0);
    for (const copy of retried) {
      expect(new Date(copy.next_attempt_at).getTime()).toBeLessThanOrEqual(
        new Date(waiting?.next_at ?? 0).getTime(),
      );
    }

    smtp.deferredDomains.clear();
    await expect
      .poll(() => smtp.arrivedAt("gmail.test").length, { timeout: 15_000 })
      .toBe(gmail.length);
    expect(
      smtp
        .arrivedAt("gmail.test")
        .map((arrival) => arrival.recipient)
        .sort(),
    ).toEqual([...gmail].sort());
    await expect.poll(async () => (await pacing("gmail.test"))?.backoff_level).toBe(0);
    await expect
      .poll(async () => (await copies(issue.id)).every((copy) => copy.status === "sent"))
      .toBe(true);
  });

  it("sends no faster than a domain's own rate while another domain goes at its own", async () => {
    const SLOW_RATE = 2;
    await start([], { DOMAIN_RATES: `slow.test=${SLOW_RATE}`, DOMAIN_RATE_PER_SECOND: "50" });
    const slow = await addSubscribers(t.database, "reader", 5, { domain: "slow.test" });
    const fast = await addSubscribers(t.database, "reader", 20, { domain: "fast.test" });
    await scheduleIssue(t.database, "paced", RATE);

    await expect
      .poll(() => smtp.arrivedAt("slow.test").length, { timeout: 15_000 })
      .toBe(slow.length);
    expect(smtp.arrivedAt("fast.test")).toHaveLength(fast.length);
    const slowTimes = smtp.arrivedAt("slow.test").map((arrival) => arrival.at);
    const fastTimes = smtp.arrivedAt("fast.test").map((arrival) => arrival.at);
    // A floor: slots are 1/rate apart where the sender takes them, so the
    // arrivals may differ from them by one delivery's jitter. The first copy
    // is left out: it may wait for the connection to open.
    const JITTER_MS = 50;
    const span = (slowTimes.at(-1) ?? 0) - (slowTimes[1] ?? 0);
    expect(span).toBeGreaterThanOrEqual(((slow.length - 2) * 1000) / SLOW_RATE - JITTER_MS);
    // fast.test's twenty copies did not wait behind slow.test's five.
    expect(fastTimes.at(-1) ?? Number.POSITIVE_INFINITY).toBeLessThan(slowTimes.at(-1) ?? 0);
  });

  it("fails a copy deferred until its last attempt and records a soft bounce of its address", async () => {
    const MAX_ATTEMPTS = 3;
    await start(["gmail.test"], { OUTBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
    const [reader] = await addSubscribers(t.database, "reader", 1, { domain: "gmail.test" });
    const issue = await scheduleIssue(t.database, "given-up", RATE);

    await expect
      .poll(
        async () => (await copies(issue.id)).map(({ status, attempts }) => ({ status, attempts })),
        { timeout: 15_000 },
      )
      .toEqual([{ status: "failed", attempts: MAX_ATTEMPTS }]);
    const [copy] = await copies(issue.id);
    await expect
      .poll(() =>
        t.database.db
          .selectFrom("delivery_reports")
          .select(["email", "kind", "source", "source_key", "message_kind", "issue_id"])
          .execute(),
      )
      .toEqual([
        {
          email: reader,
          kind: "soft",
          source: "smtp",
          source_key: `smtp-soft:${copy?.id}`,
          message_kind: "newsletter",
          issue_id: issue.id,
        },
      ]);
    // The 421 itself, or, when the client read the server's close before
    // its reply, the closed connection it stands for.
    const [report] = await t.database.db
      .selectFrom("delivery_reports")
      .select(["status", "text"])
      .execute();
    expect([
      { status: "421", text: expect.stringContaining(DEFERRAL_REPLY) },
      { status: null, text: expect.stringMatching(/connection/i) },
    ]).toContainEqual(report);
    expect(smtp.deferrals).toHaveLength(MAX_ATTEMPTS);
  });

  it("never holds transactional mail for a domain that is backing off", async () => {
    // A wait of ten minutes: nothing bulk goes to gmail.test during the test.
    await start(["gmail.test"], { DOMAIN_BACKOFF_BASE_MS: "600000" });
    await addSubscribers(t.database, "reader", 1, { domain: "gmail.test" });
    const issue = await scheduleIssue(t.database, "held-back", RATE);
    await expect.poll(async () => (await pacing("gmail.test"))?.backoff_level).toBe(1);

    smtp.deferredDomains.clear();
    const newcomer = "newcomer@gmail.test";
    const session = await openSession(t.app);
    const answer = await post(
      t.app,
      session,
      `/api/v1/subscribe?emailId=${encodeURIComponent(newcomer)}`,
    );
    expect(answer.statusCode).toBe(201);
    await expect
      .poll(() => smtp.arrivedAt("gmail.test").map((arrival) => arrival.recipient))
      .toEqual([newcomer]);
    expect((await copies(issue.id)).map((copy) => copy.status)).toEqual(["pending"]);
    expect(new Date((await pacing("gmail.test"))?.next_at ?? 0).getTime()).toBeGreaterThan(
      Date.now(),
    );
  });
});
