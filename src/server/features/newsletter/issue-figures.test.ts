/**
 * What an Insight issue brought, on both engines, through a real send to a
 * real SMTP server: every copy carries the same counted links and no
 * picture it was not written with (no open pixel); the site's redirect
 * counts a click by link and day, never who, and leads on; crawlers,
 * Do-Not-Track, a HEAD and the firm's own people are not counted; the
 * issue's figures add up its copies' fate, the unsubscribes by its link,
 * each link's clicks and the visits and leads its links brought, and the
 * Audience area's Insight table shows the same clicks.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { addSubscribers } from "../../../../test/support/newsletter.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import {
  header,
  type ReceivedMail,
  startSmtp,
  type TestSmtp,
} from "../../../../test/support/smtp.ts";
import { AUDIENCE_PATHS, type BreakdownAnswer } from "../../../shared/admin/audience.ts";
import {
  type IssueDetail,
  type IssueFigures,
  NEWSLETTER_PATHS,
} from "../../../shared/admin/newsletter.ts";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import { recordReport } from "../deliverability/index.ts";

const ORIGIN = "https://www.firm.example";
const HOST = new URL(ORIGIN).host;
const CHROME =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT =
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36";
const DAY_MS = 24 * 60 * 60 * 1000;
const SLUG = "what-it-brought";
const REPORT = "https://research.example/2026/report";

const BODY = [
  "Read [our work for insurers](/weserve) first.",
  "",
  `Then the [full report](${REPORT}), or the [same report](${REPORT}) again.`,
  "",
  "Questions? [Write to us](mailto:insight@firm.example).",
].join("\n");

describe.each(ENGINES)("what an Insight issue brought, on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;
  let issue: IssueDetail;
  let copies: ReceivedMail[];
  /**
   * The server's clock runs this far ahead of the real one, past midnight
   * when the test would cross it, so every click and visit is on `day`.
   */
  let ahead = 0;
  let day = "";

  beforeAll(async () => {
    const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
    if (untilMidnight < 30 * 60 * 1000) ahead = untilMidnight + 60 * 1000;
    day = new Date(Date.now() + ahead).toISOString().slice(0, 10);
    smtp = await startSmtp();
    t = await startApp(
      engine,
      mailTo(smtp.url, { PUBLIC_ORIGIN: ORIGIN, AUDIENCE_FLUSH_SECONDS: "300" }),
      { renderer, now: () => Date.now() + ahead },
    );
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
    const readers = await addSubscribers(t.database, "reader", 5);
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
      title: "What it brought",
      slug: SLUG,
      summary: "Links to count.",
      body: BODY,
    });
    expect(created.statusCode, created.body).toBe(201);
    issue = created.json();
    const sent = await editor.request("POST", NEWSLETTER_PATHS.send(issue.id), {});
    expect(sent.statusCode, sent.body).toBe(200);
    copies = (await Promise.all(readers.map((address) => smtp.waitForMailTo(address)))).flat();
    await vi.waitFor(async () => {
      const detail: IssueDetail = (
        await editor.request("GET", NEWSLETTER_PATHS.one(issue.id))
      ).json();
      if (detail.status !== "sent") throw new Error(`the send is ${detail.status}`);
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const linkUrl = (position: number) => `${ORIGIN}/insight/${SLUG}/link/${position}`;
  const hrefsOf = (html: string) =>
    [...html.matchAll(/href="([^"]*)"/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));

  /** A reader's click, each from an address of its own (an address counts 20 a minute at most). */
  let readers = 0;
  const follow = (
    position: number | string,
    headers: Record<string, string> = {},
    method = "GET",
  ) => {
    readers += 1;
    return t.app.inject({
      method: method as "GET" | "HEAD",
      url: `/insight/${SLUG}/link/${position}`,
      remoteAddress: `203.0.113.${readers % 250}`,
      headers: { host: HOST, "user-agent": CHROME, ...headers },
    });
  };
  const clicksOf = (answer: IssueFigures, position: number) =>
    answer.links.find((link) => link.position === position)?.clicks ?? 0;

  async function figures(client = editor): Promise<IssueFigures> {
    const response = await client.request("GET", NEWSLETTER_PATHS.figures(issue.id));
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it("sends every reader the same counted links, and no picture to watch them by", () => {
    expect(copies).toHaveLength(5);
    const expected = [linkUrl(1), linkUrl(2), linkUrl(3), "mailto:insight@firm.example"];
    for (const copy of copies) {
      const html = String(copy.parsed.html);
      const links = hrefsOf(html).filter((href) => !href.includes("/unsubscribe"));
      // The view-in-browser link, the site's page, the report (twice, one link), the address.
      expect(links).toEqual([linkUrl(1), linkUrl(2), linkUrl(3), linkUrl(3), expected[3]]);
      expect(html).not.toContain(REPORT);
      expect(html).not.toMatch(/<img\b/i);
      expect(copy.parsed.text).toContain(linkUrl(3));
      expect(header(copy, "list-unsubscribe")).toMatch(
        /^<https:\/\/www\.firm\.example\/unsubscribe\?token=/,
      );
    }
  });

  it("leads each link on to its address, the site's own tagged with the issue", async () => {
    const tags = `utm_source=insight&utm_medium=email&utm_campaign=${SLUG}`;
    const answers = await Promise.all([1, 2, 3].map((position) => follow(position)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([302, 302, 302]);
    expect(answers.map((answer) => answer.headers.location)).toEqual([
      `${ORIGIN}/insight/${SLUG}?${tags}`,
      `${ORIGIN}/weserve?${tags}`,
      REPORT,
    ]);
    for (const answer of answers) {
      expect(answer.headers["cache-control"]).toBe("no-store");
      // Only the forms' anti-forgery token, which every page of the site gives: nothing to know a reader by.
      expect(answer.cookies.map((cookie) => cookie.name)).toEqual(["XSRF-TOKEN"]);
    }
  });

  it("answers a link no issue has, or a malformed one, with the site's 404 page", async () => {
    for (const position of ["4", "0", "01", "x", "9999999", "1.5"]) {
      const answer = await follow(position);
      expect(answer.statusCode, position).toBe(404);
      expect(answer.headers["content-type"]).toContain("text/html");
    }
    const otherIssue = await t.app.inject({
      method: "GET",
      url: "/insight/never-sent/link/1",
      headers: { host: HOST, "user-agent": CHROME },
    });
    expect(otherIssue.statusCode).toBe(404);
  });

  it("refuses a slug past its length, bytes that are not UTF-8 and encoded slashes, leading nowhere", async () => {
    for (const path of [
      `/insight/${"a".repeat(10_000)}/link/1`,
      "/insight/%ff%fe/link/1",
      `/insight/${SLUG}%2F..%2F/link/1`,
      `/insight/${SLUG.toUpperCase()}/link/1`,
      `/insight/${SLUG}/link/${"9".repeat(5_000)}`,
    ]) {
      const answer = await t.app.inject({
        method: "GET",
        url: path,
        headers: { host: HOST, "user-agent": CHROME },
      });
      expect([400, 404, 414], path.slice(0, 60)).toContain(answer.statusCode);
      expect(answer.headers.location).toBeUndefined();
    }
  });

  it("counts at most an address's views a minute, however often it clicks, and still leads on", async () => {
    const clicks = async () => clicksOf(await figures(), 1);
    const before = await clicks();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: "GET",
          url: `/insight/${SLUG}/link/1`,
          remoteAddress: "192.0.2.99",
          headers: { host: HOST, "user-agent": CHROME },
        }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 302)).toBe(true);
    // AUDIENCE_VIEWS_PER_MINUTE's default, 20; a burst that spans two minutes of the clock gets 40.
    const counted = (await clicks()) - before;
    expect(counted).toBeGreaterThanOrEqual(20);
    expect(counted).toBeLessThanOrEqual(40);
  });

  it("counts clicks by link and day, and not those of crawlers, Do-Not-Track, HEAD or the firm", async () => {
    const before = await figures();
    const staffAnswer = await editor.request("GET", NEWSLETTER_PATHS.figures(issue.id));
    const mark = staffAnswer.cookies.find((cookie) => cookie.name === "console_staff")?.value;
    expect(mark).toBeTruthy();

    // Twenty readers follow the report at once: one statement each decides the count.
    await Promise.all(Array.from({ length: 20 }, () => follow(3)));
    await follow(2, { "user-agent": GOOGLEBOT });
    await follow(2, { dnt: "1" });
    await follow(2, { "sec-gpc": "1" });
    await follow(2, {}, "HEAD");
    await follow(2, { cookie: `console_staff=${mark}` });

    const after = await figures();
    expect(after.clicksCounted).toBe(true);
    expect(after.links.map((link) => link.url)).toEqual([
      `${ORIGIN}/insight/${SLUG}?utm_source=insight&utm_medium=email&utm_campaign=${SLUG}`,
      `${ORIGIN}/weserve?utm_source=insight&utm_medium=email&utm_campaign=${SLUG}`,
      REPORT,
    ]);
    expect(clicksOf(after, 3) - clicksOf(before, 3)).toBe(20);
    expect(clicksOf(after, 2)).toBe(clicksOf(before, 2));
    const stored = await t.database.db
      .selectFrom("issue_link_clicks")
      .selectAll()
      .where("issue_id", "=", issue.id)
      .execute();
    // A day and a link per row: nothing in it tells one reader from another.
    expect(stored.map((row) => Object.keys(row).sort())).toEqual(
      stored.map(() => ["clicks", "day", "issue_id", "position"]),
    );
    expect(new Set(stored.map((row) => row.day))).toEqual(new Set([day]));
  });

  it("adds up the copies' fate, its unsubscribes, its clicks, and the visits and leads its links brought", async () => {
    const [bounced, complained, leaving] = copies;
    const before = await figures();
    const outboxIdOf = async (copy: ReceivedMail | undefined) =>
      (
        await t.database.db
          .selectFrom("outbox")
          .innerJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
          .select("outbox.id")
          .where("outbox.issue_id", "=", issue.id)
          .where("subscriptions.email", "=", copy?.recipients[0] ?? "")
          .executeTakeFirstOrThrow()
      ).id;
    const policy = { limit: 3, days: 7 };
    for (const [copy, kind] of [
      [bounced, "hard"],
      [complained, "complaint"],
    ] as const) {
      await recordReport(
        t.database.db,
        {
          email: copy?.recipients[0] ?? "",
          kind,
          status: kind === "hard" ? "5.1.1" : null,
          source: "mailbox",
          sourceKey: `${kind}-${engine}`,
          outboxId: await outboxIdOf(copy),
          messageKind: "newsletter",
          issueId: issue.id,
          text: "A report.",
        },
        policy,
      );
    }

    // One reader leaves by the mail program's one-click; the console's own
    // unsubscribe is no issue's doing.
    const oneClick = new URL(
      /<([^>]+)>/.exec(header(leaving as ReceivedMail, "list-unsubscribe") ?? "")?.[1] ?? "",
    );
    const left = await t.app.inject({
      method: "POST",
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(left.statusCode).toBe(200);

    // A reader follows the link to the site's page, and from that visit sends an inquiry.
    const reader = { ip: "198.51.100.40", agent: CHROME };
    const redirect = await t.app.inject({
      method: "GET",
      url: `/insight/${SLUG}/link/2`,
      remoteAddress: reader.ip,
      headers: { host: HOST, "user-agent": reader.agent },
    });
    const page = new URL(String(redirect.headers.location));
    const landed = await t.app.inject({
      method: "GET",
      url: `${page.pathname}${page.search}`,
      remoteAddress: reader.ip,
      headers: { host: HOST, "user-agent": reader.agent },
    });
    expect(landed.statusCode).toBe(200);
    await vi.waitFor(async () => {
      await t.app.audience.flush();
      const row = await t.database.db
        .selectFrom("audience_days")
        .select("visits")
        .where("dimension", "=", "insight")
        .where("value", "=", SLUG)
        .executeTakeFirst();
      if (Number(row?.visits ?? 0) !== 1) throw new Error("the visit is not counted yet");
    });
    const xsrf = await t.app.inject({ method: "GET", url: serverPath(API_PATHS.xsrf) });
    const token = xsrf.cookies.find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
    const inquiry = await t.app.inject({
      method: "POST",
      url: serverPath(API_PATHS.sendComment),
      remoteAddress: reader.ip,
      headers: {
        host: HOST,
        "user-agent": reader.agent,
        cookie: `XSRF-TOKEN=${token}`,
        "x-xsrf-token": token,
      },
      payload: { ...VALID_INQUIRY, email: "reader-asks@example.com" },
    });
    expect(inquiry.statusCode, inquiry.body).toBe(200);
    await t.app.audience.flush();

    await createAccount(t.database, "viewer", "issue-viewer@firm.example");
    const viewer = await signIn(t.app, "issue-viewer@firm.example");
    const answer = await figures(viewer);
    expect(answer.delivery).toMatchObject({
      delivered: 5,
      hardBounces: 1,
      softBounces: 0,
      complaints: 1,
      hardBounceRate: 20,
      complaintRate: 20,
    });
    expect(answer.unsubscribed).toBe(1);
    // The reader's click, and no other, was added.
    expect(
      [1, 2, 3].map((position) => clicksOf(answer, position) - clicksOf(before, position)),
    ).toEqual([0, 1, 0]);
    expect({
      visits: answer.visits,
      inquiries: answer.inquiries,
      subscriptions: answer.subscriptions,
    }).toEqual({
      visits: 1,
      inquiries: 1,
      subscriptions: 0,
    });

    // The Audience area's Insight table: the same visits and leads, and the day's clicks.
    const response = await viewer.request(
      "GET",
      `${AUDIENCE_PATHS.breakdown}?range=custom&from=${day}&to=${day}&dimension=insight`,
    );
    const insight: BreakdownAnswer = response.json();
    const clicks = answer.links.reduce((total, link) => total + link.clicks, 0);
    expect(insight.rows).toEqual([
      {
        value: SLUG,
        issue: { id: issue.id, title: "What it brought", clicks },
        visitors: 1,
        views: 1,
        visits: 1,
        leads: { inquiries: 1, subscriptions: 0, rate: 1 },
      },
    ]);
  });
});
