/**
 * The site's audience, counted where its pages are served, with no cookie
 * and nothing stored on the visitor's device (ADR 051). A page view is a
 * page the server sent (200, or 304 to a browser or CDN that had it) to a
 * GET of one of the site's page routes, counted under the route's own path,
 * or a page reached by a client-side navigation, which the web app reports
 * with navigator.sendBeacon to POST /api/v1/page-view. Not counted:
 * crawlers (isbot), prefetches, `DNT: 1` or `Sec-GPC: 1`, the firm's own
 * signed-in people (staff.ts), a request to another Host than the site's,
 * and an address's views past its number a minute (ADR 058).
 *
 * Each view is counted in memory (visits.ts, tally.ts) after its answer has
 * gone; every AUDIENCE_FLUSH_SECONDS, and when the server closes, the counts
 * are added to audience_days. A process that dies loses what it counted
 * since its last flush. The daily purge deletes rollups older than
 * AUDIENCE_RETENTION_MONTHS and salts older than 48 hours.
 *
 * The Audience area's reading side, the console's figures and the weekly
 * digest, is its own plugin (figures-plugin.ts).
 *
 * What the rest of the server may use: these two plugins, app.audience, and
 * the readings exported at the end.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIVE_MINUTES } from "../../../shared/admin/audience.ts";
import { ADMIN_API, AUTH_PATHS } from "../../../shared/admin/auth.ts";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { runPeriodically } from "../../platform/ops/periodic.ts";
import { closeRedis, connectRedis } from "../../platform/security/redis-client.ts";
import { fromAnotherSite } from "../../platform/security/xsrf.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { AddressLimits, MINUTE_MS } from "./addresses.ts";
import {
  arrivesFromElsewhere,
  type Hit,
  isSitePage,
  notToCount,
  ownHost,
  pagePath,
  servedPagePath,
  visitAttributes,
} from "./hits.ts";
import { DaySalts, dayOf, deleteOldSalts, type ViewHashes } from "./salts.ts";
import type { AudienceSettings } from "./server-settings.ts";
import { STAFF_COOKIE, staffMarks } from "./staff.ts";
import { Tally } from "./tally.ts";
import { type Goal, MemoryVisitors, RedisVisitors, type VisitorStore } from "./visits.ts";

declare module "fastify" {
  interface FastifyInstance {
    audience: {
      /** Whether views are counted (AUDIENCE_COUNTING). */
      counting: boolean;
      /**
       * Writes every view counted so far to audience_days, once the views
       * still being counted (a salt or Redis on its way) are in: what a
       * test, or a reader that must see the latest figures, calls first.
       */
      flush(): Promise<void>;
      /**
       * Counts an inquiry or a new subscription, made by `request`, as a
       * conversion of the visit its sender is counted in: after the lead is
       * stored, and only when that visit was counted (visits.ts). Leads
       * from anywhere else (an import, the console) are never passed here.
       */
      convert(request: FastifyRequest, goal: Goal): void;
      /**
       * Whether a request that is no page view, such as a click on an
       * Insight link, may add to a figure: it came to the site's own name,
       * from no crawler or prefetch, without Do-Not-Track or Global Privacy
       * Control, not from the firm's signed-in people, and its address is
       * within its views a minute (counted as one of them). Whatever
       * AUDIENCE_COUNTING says: the figure's own setting decides whether it
       * is kept.
       */
      admits(request: FastifyRequest): Promise<boolean>;
      /** The visitors with a counted view in the last LIVE_MINUTES, on every instance when Redis is shared. */
      recentVisitors(): Promise<number>;
    };
  }
}

export interface AudienceOptions {
  config: PlatformConfig & AudienceSettings;
  database: DatabaseHandle;
  /** The server's secret: the staff mark is signed with a key derived from it. */
  secret: string;
  /** The clock days, visits and retention are measured with (epoch ms); tests pass their own. */
  now?: () => number;
}

/** Without Redis each instance counts its own visitors, so one served by two counts twice. */
const REDIS_MESSAGES = {
  down: "Redis is unreachable: each instance counts the audience's visits alone until it answers again",
  back: "Redis answers again: the audience's visits are counted across instances",
};

/** The beacon's body: the path (and query) the browser navigated to. */
const pageViewBody = z.string().max(1000);

/**
 * The beacon's limit, per address and minute, as a multiple of the public
 * writes' (RATE_LIMIT_PER_MINUTE, 30: 600 views a minute): an office behind
 * one address reads many pages a minute, and a beacon writes nothing at once.
 */
const PAGE_VIEWS_PER_WRITE = 20;

/** The first day kept when rollups live `months` months: the same day of the month, that many months back. */
export function firstDayKept(now: Date, months: number): string {
  const cut = new Date(now);
  cut.setUTCMonth(cut.getUTCMonth() - months);
  return dayOf(cut.getTime());
}

export default fp(
  async function audience(
    app: FastifyInstance,
    { config, database, secret, now = Date.now }: AudienceOptions,
  ) {
    const { db } = database;
    const counting = config.AUDIENCE_COUNTING === "on";
    const tally = new Tally(config.AUDIENCE_VALUES_PER_DAY);
    const addresses = new AddressLimits({
      viewsPerMinute: config.AUDIENCE_VIEWS_PER_MINUTE,
      visitorsPerAddress: config.AUDIENCE_VISITORS_PER_ADDRESS,
    });
    const salts = new DaySalts(db);
    const marks = staffMarks(secret, db, app.sessionLimits, now);
    const isOwn = ownHost(config.PUBLIC_ORIGIN);

    let store: VisitorStore;
    let memory: MemoryVisitors | null = null;
    if (counting && config.REDIS_URL) {
      const prefix = `${config.REDIS_KEY_PREFIX}audience:`;
      const redis = await connectRedis(config.REDIS_URL, prefix, app.log, REDIS_MESSAGES);
      app.addHook("onClose", () => closeRedis(redis));
      store = new RedisVisitors(redis, prefix, tally, addresses, app.log);
    } else {
      memory = new MemoryVisitors(tally, addresses);
      store = memory;
    }

    /** Views still being counted (a salt, a staff check or Redis on its way). */
    const inFlight = new Set<Promise<void>>();

    function count(request: FastifyRequest, path: string, query: string, referrer: string) {
      // Another name than the site's: a made-up Host is no visit to the site.
      if (!isOwn(request.hostname)) return;
      const at = now();
      const hit: Hit = {
        day: dayOf(at),
        at,
        // request.ip is undefined once a client that reset its connection is gone.
        ip: (request.ip as string | undefined) ?? "",
        userAgent: request.headers["user-agent"] ?? "",
        path,
        referrer,
        query,
        arrives: arrivesFromElsewhere(referrer, query, isOwn),
      };
      const attributes = () => visitAttributes(hit, isOwn);
      asVisitor(request, hit, "counting a page view", {
        now: (hashes) => memory?.countNow(hashes, hit, attributes),
        later: (hashes) => store.count(hashes, hit, attributes),
      });
    }

    /**
     * Runs `work` with the hashes that name the request's visitor, unless
     * the firm's own signed-in browser sent it: at once when this process
     * keeps the visitors and has the day's salt, else once they are known
     * (tracked in `inFlight`, so a flush waits for it).
     */
    function asVisitor(
      request: FastifyRequest,
      { day, at, ip, userAgent }: Pick<Hit, "day" | "at" | "ip" | "userAgent">,
      what: string,
      work: { now(hashes: ViewHashes): void; later(hashes: ViewHashes): Promise<void> },
    ) {
      const mark = request.cookies[STAFF_COOKIE];
      const signedMark = marks.signed(mark);
      const hasher = salts.cachedHasher(day);
      if (!signedMark && hasher && memory) {
        work.now(hasher(ip, userAgent));
        return;
      }
      const done = (async () => {
        if (signedMark && (await marks.isLive(mark))) return;
        await work.later((await salts.hasher(day, at))(ip, userAgent));
      })().catch((error: unknown) => app.log.error({ err: error }, `${what} failed`));
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    }

    function convert(request: FastifyRequest, goal: Goal) {
      if (!counting || !isOwn(request.hostname) || notToCount(request)) return;
      const at = now();
      const when = { day: dayOf(at), at };
      const sender = {
        ...when,
        ip: (request.ip as string | undefined) ?? "",
        userAgent: request.headers["user-agent"] ?? "",
      };
      asVisitor(request, sender, "counting a conversion", {
        now: (hashes) => memory?.convertNow(hashes, goal, when),
        later: (hashes) => store.convert(hashes, goal, when),
      });
    }

    async function admits(request: FastifyRequest): Promise<boolean> {
      if (!isOwn(request.hostname) || notToCount(request)) return false;
      const mark = request.cookies[STAFF_COOKIE];
      if (marks.signed(mark) && (await marks.isLive(mark))) return false;
      const at = now();
      const day = dayOf(at);
      const hasher = salts.cachedHasher(day) ?? (await salts.hasher(day, at));
      const { address } = hasher((request.ip as string | undefined) ?? "", "");
      return addresses.admitView(address, day, at);
    }

    /** A page the server sent: a GET of a page's route answered with its HTML, or 304 for one the asker had. */
    function countPage(request: FastifyRequest, reply: FastifyReply) {
      if (request.method !== "GET") return;
      const status = reply.statusCode;
      if (status !== 200 && status !== 304) return;
      const path = servedPagePath(request);
      if (path === null) return;
      // A draft's preview is the firm's, not its audience's.
      if (String(reply.getHeader("cache-control") ?? "").includes("no-store")) return;
      if (notToCount(request)) return;
      const queryAt = request.url.indexOf("?");
      const referrer = request.headers.referer;
      count(
        request,
        path,
        queryAt === -1 ? "" : request.url.slice(queryAt + 1),
        typeof referrer === "string" ? referrer : "",
      );
    }

    const flush = async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      const today = dayOf(now());
      store.forgetBefore(today);
      await tally.flush(db, today);
    };
    const recentVisitors = () => store.recentVisitors(now() - LIVE_MINUTES * MINUTE_MS);
    app.decorate("audience", { counting, flush, convert, admits, recentVisitors });

    if (counting) {
      app.addHook("onResponse", (request, reply, done) => {
        countPage(request, reply);
        done();
      });
      runPeriodically(app, {
        what: "writing the audience counts",
        everyMs: config.AUDIENCE_FLUSH_SECONDS * 1000,
        run: flush,
      });
      // After runPeriodically's own close, which waits for a flush under way.
      app.addHook("onClose", async () => {
        await flush().catch((error: unknown) =>
          app.log.error({ err: error }, "writing the audience counts at close failed"),
        );
      });
    }

    // Every console answer to a signed-in person marks the browser as the firm's (staff.ts).
    app.addHook("onSend", (request, reply, payload, done) => {
      const cookieOptions = {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: request.protocol === "https",
      } as const;
      if (request.method === "DELETE" && request.url === AUTH_PATHS.session) {
        // Signing out: the browser is the audience's again.
        reply.clearCookie(STAFF_COOKIE, cookieOptions);
      } else if (request.sessionId && request.url.startsWith(ADMIN_API)) {
        const mark = marks.mark(request.sessionId);
        if (request.cookies[STAFF_COOKIE] !== mark) {
          reply.setCookie(STAFF_COOKIE, mark, cookieOptions);
        }
      }
      done(null, payload);
    });

    app.dailyPurge.add({
      what: "audience figures",
      run: async (at) => {
        const firstDay = firstDayKept(at, config.AUDIENCE_RETENTION_MONTHS);
        let deleted = 0;
        // A day's caps go with its figures: the Audience area says which days overflowed.
        for (const table of ["audience_days", "audience_value_caps"] as const) {
          const result = await db.deleteFrom(table).where("day", "<", firstDay).executeTakeFirst();
          deleted += Number(result.numDeletedRows);
        }
        return deleted;
      },
    });
    app.dailyPurge.add({ what: "audience salts", run: (at) => deleteOldSalts(db, at) });

    await app.register(beacon, {
      count: counting ? count : null,
      origin: config.PUBLIC_ORIGIN,
      perMinute: config.RATE_LIMIT_PER_MINUTE * PAGE_VIEWS_PER_WRITE,
    });
  },
  {
    name: "audience",
    dependencies: ["console", "content", "daily-purge", "xsrf", "rate-limit"],
  },
);

interface BeaconOptions {
  count: ((request: FastifyRequest, path: string, query: string, referrer: string) => void) | null;
  origin: string;
  /** Beacons allowed per address and minute. */
  perMinute: number;
}

/**
 * The beacon a client-side navigation sends. navigator.sendBeacon cannot
 * set the cross-site token's header, so the route opts out of it; a post
 * the browser says came from another site is answered the same and not
 * counted. The answer is always 204 with nothing in it: the page does not
 * wait for it, and nobody learns from it whether the view was counted.
 */
const beacon: FastifyPluginAsyncZod<BeaconOptions> = async (app, { count, origin, perMinute }) => {
  app.post(
    serverPath(API_PATHS.pageView),
    {
      schema: { body: pageViewBody, response: { 204: z.null() } },
      config: { xsrf: false, rateLimit: { max: perMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const [given = "", query = ""] = request.body.split("?", 2);
      const path = pagePath(given);
      if (
        count &&
        !fromAnotherSite(request, origin) &&
        !notToCount(request) &&
        (await isSitePage(app.content, path))
      ) {
        // A navigation inside the site: the page before it was this site's, so no new source.
        count(request, path, query, "");
      }
      return reply.code(204).send(null);
    },
  );
};

export { digestFigures, digestWeeks, dueWeek, mondayOf, sendWeeklyDigest } from "./digest.ts";
export { AUDIENCE_DIGEST_KIND, audienceDigestMail, digestLink } from "./digest-mail.tsx";
export { breakdownOf, cappedDays, insightTotals, periodFigures } from "./figures.ts";
export { default as audienceFigures } from "./figures-plugin.ts";
export { goalFigures } from "./goals.ts";
export { periodFor, previousOf } from "./periods.ts";
