/**
 * Every lead has its source: an inquiry and a subscription store the visit's
 * entry page, referrer and UTM tags the page sent (or, for a form posted
 * without JavaScript, the form's own page from the post's Referer), with the
 * channel the server derives; junk in a source is dropped and never refuses
 * the post; the console's details and CSV exports show it; and an Insight
 * e-mail's links to the site carry the UTM tags unless switched off.
 * On both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inquiryPath } from "../../src/shared/admin/inquiries.ts";
import { SOURCE_EXPORT_COLUMNS } from "../../src/shared/admin/lead-source.ts";
import { NEWSLETTER_PATHS } from "../../src/shared/admin/newsletter.ts";
import { SUBSCRIBER_ROUTES, subscriberPath } from "../../src/shared/admin/subscribers.ts";
import {
  TURNED_AWAY_ROUTES,
  type TurnedAwayPost,
  turnedAwayPath,
} from "../../src/shared/admin/turned-away.ts";
import { FORM_TRAP_HEADER } from "../../src/shared/bot-defence.ts";
import { FORM_SOURCE_FIELD, FORM_TOKEN_FIELD } from "../../src/shared/page-context.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../support/console.ts";
import { csvRecords } from "../support/csv.ts";
import { SQLITE_ONLY } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { newsletterDraft } from "../support/newsletter.ts";
import { builtRenderer as renderer } from "../support/page-renderer.ts";
import { unsubscribeByOneClick } from "../support/subscription-links.ts";

const FROM_SEARCH = {
  entryPage: "/weserve",
  referrer: "www.google.com",
  utmSource: "x",
  utmMedium: "y",
  utmCampaign: "z",
};

const NO_SOURCE = {
  source_entry_page: null,
  source_referrer: null,
  source_channel: null,
  source_utm_source: null,
  source_utm_medium: null,
  source_utm_campaign: null,
};

describe.each(SQLITE_ONLY)("the source of every lead on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  let viewer: ConsoleClient;
  let editor: ConsoleClient;

  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
    session = await openSession(t.app);
    await createAccount(t.database, "viewer", "source-viewer@firm.example");
    await createAccount(t.database, "editor", "source-editor@firm.example");
    viewer = await signIn(t.app, "source-viewer@firm.example");
    editor = await signIn(t.app, "source-editor@firm.example");
  });
  afterAll(() => t.close());

  const inquirySource = (id: number) =>
    t.database.db
      .selectFrom("inquiries")
      .select(Object.keys(NO_SOURCE) as (keyof typeof NO_SOURCE)[])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const subscriptionOf = (email: string) =>
    t.database.db
      .selectFrom("subscriptions")
      .select(["id", ...(Object.keys(NO_SOURCE) as (keyof typeof NO_SOURCE)[])])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

  async function sendInquiry(body: object): Promise<number> {
    const response = await post(t.app, session, "/api/v1/send-comment", body);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { id: number }).id;
  }
  const subscribeUrl = (email: string) =>
    `/api/v1/subscribe?${new URLSearchParams({ emailId: email })}`;

  it("stores an inquiry's source with the channel the server derives", async () => {
    const id = await sendInquiry({ ...VALID_INQUIRY, source: FROM_SEARCH });
    expect(await inquirySource(id)).toEqual({
      source_entry_page: "/weserve",
      source_referrer: "google.com",
      source_channel: "search",
      source_utm_source: "x",
      source_utm_medium: "y",
      source_utm_campaign: "z",
    });
  });

  it("stores an inquiry without a source, as the original body, with none", async () => {
    const id = await sendInquiry(VALID_INQUIRY);
    expect(await inquirySource(id)).toEqual(NO_SOURCE);
  });

  it("drops the junk of a source and keeps the rest and the inquiry", async () => {
    const id = await sendInquiry({
      ...VALID_INQUIRY,
      source: {
        entryPage: `/${"a".repeat(5000)}`,
        referrer: 42,
        utmSource: ["linkedin"],
        utmMedium: "email",
        utmCampaign: "line\nbreak",
        channel: "search",
      },
    });
    expect(await inquirySource(id)).toEqual({
      ...NO_SOURCE,
      source_utm_medium: "email",
      source_channel: "email",
    });
    for (const source of ["junk", 7, [1, 2], null]) {
      expect(await inquirySource(await sendInquiry({ ...VALID_INQUIRY, source }))).toEqual(
        NO_SOURCE,
      );
    }
  });

  it("stores a subscription's source; the original bodiless call and junk bodies still subscribe", async () => {
    const withSource = `sourced-${engine.engine}@example.com`;
    const answer = await post(t.app, session, subscribeUrl(withSource), {
      source: { entryPage: "/insight", referrer: "https://www.linkedin.com/feed/" },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await subscriptionOf(withSource)).toMatchObject({
      ...NO_SOURCE,
      source_entry_page: "/insight",
      source_referrer: "linkedin.com",
      source_channel: "social",
    });

    const bare = `bare-${engine.engine}@example.com`;
    expect((await post(t.app, session, subscribeUrl(bare))).statusCode).toBe(201);
    expect(await subscriptionOf(bare)).toMatchObject(NO_SOURCE);

    const junk = `junk-${engine.engine}@example.com`;
    const junkAnswer = await post(t.app, session, subscribeUrl(junk), {
      source: { entryPage: 5, utmSource: "s".repeat(101) },
      other: true,
    });
    expect(junkAnswer.statusCode, junkAnswer.body).toBe(201);
    expect(await subscriptionOf(junk)).toMatchObject(NO_SOURCE);
  });

  it("a re-subscription after an unsubscribe takes the new visit's source", async () => {
    const email = `returning-${engine.engine}@example.com`;
    await post(t.app, session, subscribeUrl(email), { source: FROM_SEARCH });
    const first = await subscriptionOf(email);
    expect(first.source_channel).toBe("search");
    // Subscribed already: a second visit's source changes nothing.
    await post(t.app, session, subscribeUrl(email), { source: { utmMedium: "email" } });
    expect(await subscriptionOf(email)).toEqual(first);
    await unsubscribeByOneClick(t, first.id);
    await post(t.app, session, subscribeUrl(email), { source: { entryPage: "/insight" } });
    expect(await subscriptionOf(email)).toEqual({
      ...NO_SOURCE,
      id: first.id,
      source_entry_page: "/insight",
      source_channel: "direct",
    });
  });

  describe("a form posted without JavaScript", () => {
    let cookie: string;
    let token: string;
    beforeAll(async () => {
      const page = await t.app.inject({ url: "/contact-us?utm_source=x&utm_medium=y" });
      cookie = `XSRF-TOKEN=${page.cookies.find((c) => c.name === "XSRF-TOKEN")?.value}`;
      token = new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(page.body)?.[1] ?? "";
    });

    function postForm(url: string, fields: Record<string, string>, referer?: string) {
      return t.app.inject({
        method: "POST",
        url,
        headers: {
          cookie,
          origin: t.config.PUBLIC_ORIGIN,
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
          ...(referer ? { referer } : {}),
        },
        payload: new URLSearchParams({ [FORM_TOKEN_FIELD]: token, ...fields }).toString(),
      });
    }
    const latestInquiry = () =>
      t.database.db
        .selectFrom("inquiries")
        .select(["comments", ...(Object.keys(NO_SOURCE) as (keyof typeof NO_SOURCE)[])])
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();

    it("takes the form's page and its UTM tags from the post's Referer", async () => {
      const comments = `No script, with a source, ${engine.engine}`;
      const response = await postForm(
        "/contact-us",
        { ...VALID_INQUIRY, comments },
        `${t.config.PUBLIC_ORIGIN}/contact-us?utm_source=linkedin&utm_medium=social&utm_campaign=spring`,
      );
      expect(response.statusCode).toBe(200);
      expect(await latestInquiry()).toEqual({
        comments,
        source_entry_page: "/contact-us",
        // The visit's own referrer cannot be known from the form's page.
        source_referrer: null,
        source_channel: "social",
        source_utm_source: "linkedin",
        source_utm_medium: "social",
        source_utm_campaign: "spring",
      });

      const subscriber = `no-script-${engine.engine}@example.com`;
      const subscribed = await postForm(
        "/subscribe",
        { emailId: subscriber },
        `${t.config.PUBLIC_ORIGIN}/insight`,
      );
      expect(subscribed.statusCode).toBe(201);
      // No UTM tag and no known referrer: the page is known, the channel is not.
      expect(await subscriptionOf(subscriber)).toMatchObject({
        ...NO_SOURCE,
        source_entry_page: "/insight",
      });
    });

    it("a post refused once carries its source on the answer page, so sending it again keeps it", async () => {
      const comments = `No script, second try, ${engine.engine}`;
      const refused = await postForm(
        "/contact-us",
        { ...VALID_INQUIRY, email: "not-an-address", comments },
        `${t.config.PUBLIC_ORIGIN}/contact-us?utm_source=news&utm_medium=email&utm_campaign=again`,
      );
      expect(refused.statusCode).toBe(400);
      const carried = new RegExp(`name="${FORM_SOURCE_FIELD}" value="([^"]+)"`).exec(
        refused.body,
      )?.[1];
      expect(carried).toBeDefined();
      const field = String(carried).replaceAll("&quot;", '"');
      // The answer page's address has no query: the Referer of the second post loses the tags.
      const again = await postForm(
        "/contact-us",
        { ...VALID_INQUIRY, comments, [FORM_SOURCE_FIELD]: field },
        `${t.config.PUBLIC_ORIGIN}/contact-us`,
      );
      expect(again.statusCode).toBe(200);
      expect(await latestInquiry()).toEqual({
        ...NO_SOURCE,
        comments,
        source_entry_page: "/contact-us",
        source_channel: "email",
        source_utm_source: "news",
        source_utm_medium: "email",
        source_utm_campaign: "again",
      });
      // A cached page never carries one.
      expect((await t.app.inject({ url: "/contact-us?utm_source=x" })).body).not.toContain(
        FORM_SOURCE_FIELD,
      );
    });

    it("keeps no source from another site's Referer or none", async () => {
      for (const referer of ["https://elsewhere.example/contact-us?utm_source=x", undefined]) {
        const comments = `No script, no source, ${referer ?? "none"}`;
        expect(
          (await postForm("/contact-us", { ...VALID_INQUIRY, comments }, referer)).statusCode,
        ).toBe(200);
        expect(await latestInquiry()).toEqual({ comments, ...NO_SOURCE });
      }
    });
  });

  it("keeps a turned-away post's source, and its release stores it", async () => {
    const email = `trapped-${engine.engine}@example.com`;
    const answer = await t.app.inject({
      method: "POST",
      url: subscribeUrl(email),
      headers: {
        cookie: session.cookie,
        "x-xsrf-token": session.token,
        [FORM_TRAP_HEADER]: "https://spam.example",
      },
      payload: { source: FROM_SEARCH },
    });
    expect(answer.statusCode).toBe(201);
    const list = await viewer.request("GET", TURNED_AWAY_ROUTES.list);
    const kept = (list.json() as { posts: TurnedAwayPost[] }).posts.find(
      (candidate) => candidate.fields.emailId === email,
    );
    expect(kept?.source).toEqual({ ...FROM_SEARCH, referrer: "google.com" });
    const released = await editor.request("POST", turnedAwayPath(kept?.id ?? 0, "release"));
    expect(released.statusCode).toBe(200);
    expect(await subscriptionOf(email)).toMatchObject({
      source_entry_page: "/weserve",
      source_channel: "search",
      source_utm_campaign: "z",
    });
  });

  it("shows the source on the inquiry's detail and in the inquiries' CSV", async () => {
    const sourced = await sendInquiry({
      ...VALID_INQUIRY,
      email: "sourced-detail@example.com",
      source: FROM_SEARCH,
    });
    const unknown = await sendInquiry({ ...VALID_INQUIRY, email: "unknown-detail@example.com" });

    const detail = await viewer.request("GET", inquiryPath("/api/admin/inquiries/:id", sourced));
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().source).toEqual({
      ...FROM_SEARCH,
      referrer: "google.com",
      channel: "search",
    });
    const none = await viewer.request("GET", inquiryPath("/api/admin/inquiries/:id", unknown));
    expect(none.json().source).toBeNull();

    const csv = await viewer.request("GET", "/api/admin/inquiries/export.csv");
    expect(csv.statusCode).toBe(200);
    const rows = csvRecords(csv.body);
    expect(Object.keys(rows[0] ?? {})).toEqual(expect.arrayContaining([...SOURCE_EXPORT_COLUMNS]));
    expect(rows.find((row) => row.id === String(sourced))).toMatchObject({
      source_entry_page: "/weserve",
      source_referrer: "google.com",
      source_channel: "search",
      source_utm_source: "x",
      source_utm_medium: "y",
      source_utm_campaign: "z",
    });
    expect(rows.find((row) => row.id === String(unknown))).toMatchObject({
      source_entry_page: "",
      source_channel: "",
    });
  });

  it("shows the source on the subscriber's detail and in the subscribers' CSV", async () => {
    const email = `detail-${engine.engine}@example.com`;
    await post(t.app, session, subscribeUrl(email), {
      source: {
        entryPage: "/insight/spring",
        utmSource: "insight",
        utmMedium: "email",
        utmCampaign: "spring",
      },
    });
    const { id } = await subscriptionOf(email);
    const detail = await viewer.request("GET", subscriberPath(id));
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().source).toEqual({
      entryPage: "/insight/spring",
      utmSource: "insight",
      utmMedium: "email",
      utmCampaign: "spring",
      channel: "email",
    });

    const csv = await viewer.request("GET", SUBSCRIBER_ROUTES.export);
    expect(csv.statusCode).toBe(200);
    const row = csvRecords(csv.body).find((candidate) => candidate.address === email);
    expect(row).toMatchObject({
      source_entry_page: "/insight/spring",
      source_referrer: "",
      source_channel: "email",
      source_utm_campaign: "spring",
    });
  });
});

describe.each(SQLITE_ONLY)("Insight e-mail links on $engine", (engine) => {
  async function previewLinks(env: Record<string, string>, slug: string): Promise<string[]> {
    const t = await startApp(engine, env);
    try {
      await createAccount(t.database, "editor", "links-editor@firm.example");
      const editor = await signIn(t.app, "links-editor@firm.example");
      const draft = newsletterDraft(slug);
      const created = await editor.request("POST", NEWSLETTER_PATHS.list, {
        ...draft,
        body: `${draft.body}\n\n[Elsewhere](https://elsewhere.example/page?a=1) and [tagged](/weare?utm_campaign=own).`,
      });
      expect(created.statusCode, created.body).toBe(201);
      const preview = await editor.request("GET", NEWSLETTER_PATHS.emailPreview(created.json().id));
      expect(preview.statusCode).toBe(200);
      return [...preview.body.matchAll(/href="([^"]*)"/g)].map((match) =>
        String(match[1]).replaceAll("&amp;", "&"),
      );
    } finally {
      await t.close();
    }
  }

  it("tag the links to the site with the issue's campaign, never another site's", async () => {
    const links = await previewLinks({}, "spring-notes");
    const origin = "http://localhost:3000";
    const own = links.filter((link) => link.startsWith(origin) && !link.includes("/unsubscribe"));
    expect(own.length).toBeGreaterThan(1);
    expect(own).toContain(
      `${origin}/weserve?utm_source=insight&utm_medium=email&utm_campaign=spring-notes`,
    );
    // An editor's own tag is kept; the missing ones are added.
    expect(own).toContain(`${origin}/weare?utm_campaign=own&utm_source=insight&utm_medium=email`);
    for (const link of own) expect(link).toContain("utm_source=insight");
    expect(links).toContain("https://elsewhere.example/page?a=1");
    for (const link of links.filter((link) => link.includes("/unsubscribe"))) {
      expect(link).not.toContain("utm_");
    }
  });

  it("leave every link bare with INSIGHT_LINK_TAGS=false", async () => {
    const links = await previewLinks({ INSIGHT_LINK_TAGS: "false" }, "bare-notes");
    expect(links).toContain("http://localhost:3000/weserve");
    for (const link of links) expect(link).not.toContain("utm_source");
  });
});
