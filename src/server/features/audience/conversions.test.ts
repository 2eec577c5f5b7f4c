/**
 * What the Audience area says visits led to, built from a mixed population
 * on both engines: counted visits that send inquiries and subscribe (with
 * JavaScript and without), visits that are not counted (Do-Not-Track, a
 * crawler, a post with no visit, a visit that ended before its post), an
 * import and the console. Only what a counted visit did is a conversion,
 * and every figure adds up: no rate passes 100 %, each funnel step is at
 * most the one before, and every breakdown's conversions are the
 * headline's.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { multipartBody } from "../../../../test/support/multipart.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv } from "../../../../test/support/redis.ts";
import {
  AUDIENCE_PATHS,
  type BreakdownAnswer,
  type Overview,
  WITH_LEADS,
} from "../../../shared/admin/audience.ts";
import { IMPORT_ROUTES } from "../../../shared/admin/subscriber-import.ts";
import { turnedAwayPath } from "../../../shared/admin/turned-away.ts";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import { FORM_TRAP_HEADER } from "../../../shared/bot-defence.ts";
import { FORM_TOKEN_FIELD } from "../../../shared/page-context.ts";

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT =
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36";
const ORIGIN = "https://meridian.example";
const HOST = new URL(ORIGIN).host;
const ENV = { AUDIENCE_FLUSH_SECONDS: "300", PUBLIC_ORIGIN: ORIGIN };

/** One person's browser: its address and user agent, and headers it sends with everything. */
interface Browser {
  ip: string;
  agent?: string;
  headers?: Record<string, string>;
  /** Whether its views are counted (not for Do-Not-Track or a crawler). */
  uncounted?: boolean;
}

let addresses = 0;
const browser = (more: Omit<Browser, "ip"> = {}): Browser => {
  addresses += 1;
  return { ip: `198.51.100.${addresses}`, ...more };
};

function population(stores: { name: string; env: Record<string, string> }[]) {
  return describe.each(ENGINES)("conversions on $engine", (engine) => {
    describe.each(stores)("with the visitors kept in $name", ({ env }) => {
      let t: TestApp;
      let owner: ConsoleClient;
      /**
       * The server's clock runs this far ahead of the real one, which issues
       * the forms' tokens (a post timed before its token would look too
       * fast). It starts past midnight when the population would cross one,
       * so every visit is on one UTC day, `day`.
       */
      let ahead = 0;
      let day = "";

      beforeAll(async () => {
        const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
        if (untilMidnight < 45 * MINUTE_MS) ahead = untilMidnight + MINUTE_MS;
        day = new Date(Date.now() + ahead).toISOString().slice(0, 10);
        t = await startApp(engine, { ...ENV, ...env }, { renderer, now: () => Date.now() + ahead });
        await createAccount(t.database, "owner", "conversions-owner@firm.example");
        owner = await signIn(t.app, "conversions-owner@firm.example");
        await visitAndConvert();
        await t.app.audience.flush();
      });
      afterAll(() => t.close());

      const headersOf = ({ agent = CHROME, headers = {} }: Browser) => ({
        host: HOST,
        "user-agent": agent,
        ...headers,
      });

      /** The page views of `day` in the rollups, with what is counted so far added. */
      async function storedViews(): Promise<number> {
        await t.app.audience.flush();
        const total = await t.database.db
          .selectFrom("audience_days")
          .select("views")
          .where("day", "=", day)
          .where("dimension", "=", "total")
          .executeTakeFirst();
        return Number(total?.views ?? 0);
      }
      let viewsCounted = 0;

      /**
       * A page view, and for a counted browser the wait until it is in the
       * rollups, before the browser's next request: a view is counted after
       * its answer has gone (in Redis, a round trip later), and a person
       * takes longer than that to fill a form.
       */
      async function view(who: Browser, url: string, referer?: string) {
        const response = await t.app.inject({
          method: "GET",
          url,
          remoteAddress: who.ip,
          headers: { ...headersOf(who), ...(referer ? { referer } : {}) },
        });
        if (!who.uncounted) {
          viewsCounted += 1;
          await vi.waitFor(async () => {
            const stored = await storedViews();
            if (stored !== viewsCounted)
              throw new Error(`${stored} of ${viewsCounted} views counted`);
          });
        }
        return response;
      }

      /** A post of the page's script: the API, with the cross-site token its page was given. */
      async function apiPost(who: Browser, url: string, payload: object) {
        const xsrf = await t.app.inject({ method: "GET", url: serverPath(API_PATHS.xsrf) });
        const token = xsrf.cookies.find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
        return t.app.inject({
          method: "POST",
          url,
          remoteAddress: who.ip,
          headers: { ...headersOf(who), cookie: `XSRF-TOKEN=${token}`, "x-xsrf-token": token },
          payload,
        });
      }

      const sendInquiry = (who: Browser, email: string) =>
        apiPost(who, serverPath(API_PATHS.sendComment), { ...VALID_INQUIRY, email });

      const subscribe = (who: Browser, email: string) =>
        apiPost(who, `${serverPath(API_PATHS.subscribe)}?emailId=${encodeURIComponent(email)}`, {});

      /** A form posted without JavaScript from the page `url`, which the browser loads first. */
      async function postForm(
        who: Browser,
        url: string,
        action: string,
        fields: Record<string, string>,
      ) {
        const page = await view(who, url);
        const cookie = page.cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
        const token = new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(page.body)?.[1];
        if (!cookie || !token) throw new Error(`${url} came without its form token`);
        return t.app.inject({
          method: "POST",
          url: action,
          remoteAddress: who.ip,
          headers: {
            ...headersOf(who),
            cookie: `XSRF-TOKEN=${cookie}`,
            origin: ORIGIN,
            "sec-fetch-site": "same-origin",
            "content-type": "application/x-www-form-urlencoded",
          },
          payload: new URLSearchParams({ [FORM_TOKEN_FIELD]: token, ...fields }).toString(),
        });
      }

      const expectStatus = (response: LightMyRequestResponse, status: number) =>
        expect(response.statusCode, response.body.slice(0, 300)).toBe(status);

      async function visitAndConvert() {
        // Counted visits.
        // 1. From a search engine, to the contact page, one inquiry.
        const searcher = browser();
        await view(searcher, "/", "https://www.google.com/");
        await view(searcher, "/contact-us");
        expectStatus(await sendInquiry(searcher, "searcher@example.com"), 200);
        // 2. Straight to /wedo, subscribes two addresses and one of them again:
        //    two subscriptions, one converting visit.
        const reader = browser();
        await view(reader, "/wedo");
        expectStatus(await subscribe(reader, "reader@example.com"), 201);
        expectStatus(await subscribe(reader, "reader@example.com"), 409);
        expectStatus(await subscribe(reader, "colleague@example.com"), 201);
        // 3. From an Insight issue's link to the contact page, two inquiries.
        const insightReader = browser();
        await view(
          insightReader,
          "/contact-us?utm_source=insight&utm_medium=email&utm_campaign=q4-outlook",
        );
        expectStatus(await sendInquiry(insightReader, "first@example.com"), 200);
        expectStatus(await sendInquiry(insightReader, "second@example.com"), 200);
        // 4. Reads two pages and leaves.
        const browsing = browser();
        await view(browsing, "/");
        await view(browsing, "/weare");
        // 5 and 6. Without JavaScript: an inquiry from the contact page, a subscription from /subscribe.
        const noScript = browser();
        expectStatus(
          await postForm(noScript, "/contact-us", "/contact-us", {
            ...VALID_INQUIRY,
            email: "noscript@example.com",
          }),
          200,
        );
        const noScriptReader = browser();
        expectStatus(
          await postForm(noScriptReader, "/subscribe", "/subscribe", {
            emailId: "noscript-reader@example.com",
          }),
          201,
        );
        // 7. Subscribes from the home page, then goes on to the contact page:
        //    converted, but sent no inquiry.
        const homeSubscriber = browser();
        await view(homeSubscriber, "/");
        expectStatus(await subscribe(homeSubscriber, "home@example.com"), 201);
        await view(homeSubscriber, "/contact-us");

        // 8. Sends eight inquiries at once (a double click times four, or two
        //    instances): one converting visit, decided once.
        const rush = browser();
        await view(rush, "/contact-us");
        const rushed = await Promise.all(
          Array.from({ length: 8 }, (_, n) => sendInquiry(rush, `rush-${n}@example.com`)),
        );
        for (const response of rushed) expectStatus(response, 200);

        // Leads of no counted visit: stored, never conversions.
        // Do-Not-Track, on the contact page and in the post.
        const private_ = browser({ headers: { dnt: "1" }, uncounted: true });
        await view(private_, "/contact-us");
        expectStatus(await sendInquiry(private_, "private@example.com"), 200);
        expectStatus(await subscribe(private_, "private@example.com"), 201);
        // A crawler that posts.
        const crawler = browser({ agent: GOOGLEBOT, uncounted: true });
        await view(crawler, "/contact-us");
        expectStatus(await sendInquiry(crawler, "crawler@example.com"), 200);
        // A post from a browser that viewed no page (a script calling the API).
        expectStatus(await subscribe(browser(), "script@example.com"), 201);
        // A visit that ended 31 minutes before its post: no visit is under way.
        const slow = browser();
        await view(slow, "/contact-us");
        ahead += 31 * MINUTE_MS;
        expectStatus(await sendInquiry(slow, "slow@example.com"), 200);
        // An inquiry with the form's trap filled, from a counted visit: kept
        // among the turned-away posts, and released by the firm from the console.
        const trapped = browser({ headers: { [FORM_TRAP_HEADER]: "https://spam.example" } });
        await view(trapped, "/contact-us");
        expectStatus(await sendInquiry(trapped, "trapped@example.com"), 200);
        const kept = await t.database.db
          .selectFrom("turned_away")
          .select("id")
          .executeTakeFirstOrThrow();
        expectStatus(await owner.request("POST", turnedAwayPath(kept.id, "release")), 200);
        // An import of three addresses.
        const list = Buffer.from(
          "email\r\nimported-1@example.com\r\nimported-2@example.com\r\nimported-3@example.com\r\n",
        );
        const { payload, contentType } = await multipartBody(list, "list.csv");
        const query = new URLSearchParams({
          consentSource: "Sign-up sheet at our 2025 breakfast seminar",
          consentDate: "2025-06-30",
        });
        const imported = await t.app.inject({
          method: "POST",
          url: `${IMPORT_ROUTES.run}?${query}`,
          headers: {
            cookie: owner.cookie,
            "x-xsrf-token": owner.token,
            "content-type": contentType,
          },
          payload,
        });
        expectStatus(imported, 200);
      }

      async function overview(): Promise<Overview> {
        const response = await owner.request(
          "GET",
          `${AUDIENCE_PATHS.overview}?range=custom&from=${day}&to=${day}`,
        );
        expectStatus(response, 200);
        return response.json();
      }

      async function breakdown(dimension: string): Promise<BreakdownAnswer> {
        const response = await owner.request(
          "GET",
          `${AUDIENCE_PATHS.breakdown}?range=custom&from=${day}&to=${day}&dimension=${dimension}&limit=100`,
        );
        expectStatus(response, 200);
        return response.json();
      }

      it("stores every lead, counted or not", async () => {
        const count = async (table: "inquiries" | "subscriptions") =>
          Number(
            (
              await t.database.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as("n"))
                .executeTakeFirstOrThrow()
            ).n,
          );
        // Counted: 12 inquiries, 4 subscriptions. Not: 4 inquiries (one released
        // from the turned-away posts), 2 subscriptions, 3 imported.
        expect({
          inquiries: await count("inquiries"),
          subscriptions: await count("subscriptions"),
        }).toEqual({ inquiries: 16, subscriptions: 9 });
      });

      it("counts as conversions only what the counted visits did", async () => {
        const { totals, funnel } = await overview();
        // Visits: the eight counted ones, the slow one's (its post was after it
        // ended) and the trapped one's (its post was kept, not stored).
        expect(totals).toMatchObject({ visits: 10, inquiries: 12, subscriptions: 4 });
        // Converting visits: searcher, reader, Insight reader, the two without
        // script, the home subscriber and the rush, each once.
        expect(totals.conversionRate).toBe(0.7);
        expect(funnel).toEqual({ landing: 10, contact: 7, inquiries: 4 });
      });

      it("adds up: no rate above 100 %, each funnel step within the one before", async () => {
        const { totals, funnel } = await overview();
        expect(totals.conversionRate).toBeLessThanOrEqual(1);
        expect(funnel.contact).toBeLessThanOrEqual(funnel.landing);
        expect(funnel.inquiries).toBeLessThanOrEqual(funnel.contact);
        expect(funnel.landing).toBe(totals.visits);
        for (const dimension of WITH_LEADS) {
          const { rows } = await breakdown(dimension);
          const sum = (pick: (row: (typeof rows)[number]) => number) =>
            rows.reduce((total, row) => total + pick(row), 0);
          for (const row of rows) {
            expect(row.leads?.rate ?? 0, `${dimension} ${row.value}`).toBeLessThanOrEqual(1);
            expect(row.visits, `${dimension} ${row.value}`).toBeGreaterThan(0);
          }
          // A breakdown a visit is always in (entry, channel, device, browser) lists every conversion once.
          if (["entry", "channel", "device", "browser"].includes(dimension)) {
            expect(
              { dimension, inquiries: sum((row) => row.leads?.inquiries ?? 0) },
              dimension,
            ).toEqual({ dimension, inquiries: totals.inquiries });
            expect(
              sum((row) => row.leads?.subscriptions ?? 0),
              dimension,
            ).toBe(totals.subscriptions);
            expect(
              sum((row) => row.visits),
              dimension,
            ).toBe(totals.visits);
          }
        }
      });

      it("ties each conversion to its visit's source", async () => {
        const pick = (answer: BreakdownAnswer) =>
          Object.fromEntries(answer.rows.map((row) => [row.value, [row.visits, row.leads]]));
        expect(pick(await breakdown("channel"))).toEqual({
          // The reader, the two without script, the home subscriber and the
          // rush converted; the browsing, the slow and the trapped visits did not.
          direct: [8, { inquiries: 9, subscriptions: 4, rate: 0.625 }],
          search: [1, { inquiries: 1, subscriptions: 0, rate: 1 }],
          email: [1, { inquiries: 2, subscriptions: 0, rate: 1 }],
        });
        expect(pick(await breakdown("insight"))).toEqual({
          "q4-outlook": [1, { inquiries: 2, subscriptions: 0, rate: 1 }],
        });
      });
    });
  });
}

population([
  { name: "memory", env: {} },
  ...(REDIS_URL ? [{ name: "Redis", env: redisEnv(REDIS_URL) }] : []),
]);
if (!REDIS_URL) console.info(`conversions with Redis: ${REDIS_SKIP_REASON}`);
