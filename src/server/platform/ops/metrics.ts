/**
 * The figures an operator's Prometheus scrapes: the HTTP requests by route
 * pattern and status with their durations, the process's own (event loop
 * delay, memory, CPU), the database's pool and failed queries, and the
 * gauges the platform and the features add through `app.metrics.gauge`.
 *
 * Never public (ADR 047): served on a port of its own (METRICS_PORT, bound to
 * METRICS_HOST), or at /metrics on the site's port to a scraper bringing
 * METRICS_TOKEN as a bearer token; anyone else gets the site's 404, as for a
 * path that does not exist. With neither set nothing is counted or served.
 * The port of its own goes without the token only on the loopback, and
 * there only to a request no proxy forwarded (ADR 061): bound wider without
 * the token it is not opened, and one line at start says why.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from "prom-client";
import type { DatabaseHandle } from "../db/connection.ts";
import { isLoopbackHost } from "../http/loopback.ts";
import type { PlatformConfig } from "../server-settings.ts";
import { HttpDurations, type RouteDurations } from "./http-durations.ts";

/** One value of a gauge, with its labels (none for a gauge without). */
export interface GaugeSample<L extends string> {
  labels?: Record<L, string | number>;
  value: number;
}

export interface ScrapedGauge<L extends string> {
  /** site_<area>_<what>[_<unit>], in Prometheus's words (seconds, not minutes). */
  name: string;
  help: string;
  /**
   * Reads the values when scraped: one cheap query, on an index. It is given
   * COLLECT_LIMIT_MS; one that fails or runs longer is left out of that
   * scrape (and counted), and the other figures are served.
   */
  read(): Promise<readonly GaugeSample<L>[]>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route label the route's requests are counted under, in place of
     * its pattern: for routes that are many of one thing (STATIC_ROUTE).
     */
    metricsRoute?: string;
  }
  interface FastifyInstance {
    metrics: {
      /** Adds a gauge read at each scrape (nothing is read while metrics are off). */
      gauge<L extends string = never>(gauge: ScrapedGauge<L>): void;
    };
  }
}

export interface MetricsOptions {
  config: Pick<PlatformConfig, "METRICS_PORT" | "METRICS_HOST" | "METRICS_TOKEN">;
  database: DatabaseHandle;
}

/** A gauge's time at each scrape; Prometheus's own time-out is 10 s by default. */
export const COLLECT_LIMIT_MS = 2000;

/** The route label of a request no route matched: one value, however many paths are tried. */
export const UNMATCHED_ROUTE = "unmatched";

/** The route label of the built site's files: one, however many files a build has. */
export const STATIC_ROUTE = "static";

export const METRICS_PATH = "/metrics";

export const METRICS_SERVED_MESSAGE = "metrics served";

/** The line at start when METRICS_PORT would serve the figures beyond this machine to anyone. */
export function unguardedMetricsMessage(host: string): string {
  return `The figures are not served on METRICS_PORT: METRICS_HOST ${host} reaches beyond this machine and METRICS_TOKEN is not set; set METRICS_TOKEN (32 characters or more) for the scraper to bring, or set METRICS_HOST to 127.0.0.1.`;
}

/**
 * The headers a reverse proxy adds to what it forwards: a request bearing
 * one came from further than the loopback, whatever address it arrived from.
 */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"] as const;

class CollectTimeout extends Error {
  constructor() {
    super(`not read within ${COLLECT_LIMIT_MS} ms`);
  }
}

function withinLimit<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CollectTimeout()), COLLECT_LIMIT_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/**
 * A gauge read at the scrape, as prom-client's Registry asks of a metric. One
 * whose read fails has no value in that scrape, rather than a 0 that would
 * look like an empty outbox to an alert.
 */
function scrapedGauge<L extends string>(
  { name, help, read }: ScrapedGauge<L>,
  failed: (error: unknown) => void,
) {
  return {
    name,
    help,
    type: "gauge",
    aggregator: "sum",
    async get() {
      let values: readonly GaugeSample<L>[] = [];
      try {
        values = await withinLimit(read());
      } catch (error) {
        failed(error);
      }
      return {
        name,
        help,
        type: "gauge",
        aggregator: "sum",
        values: values.map(({ labels, value }) => ({ labels: labels ?? {}, value })),
      };
    },
  };
}

/**
 * Compares digests, of equal length whatever was sent, so the time taken
 * tells nothing about how much of the token a guess got right.
 */
function isToken(authorization: string | undefined, expected: Buffer): boolean {
  if (!authorization?.startsWith("Bearer ")) return false;
  const given = createHash("sha256").update(authorization.slice("Bearer ".length)).digest();
  return timingSafeEqual(given, expected);
}

export default fp(
  async function metrics(app: FastifyInstance, { config, database }: MetricsOptions) {
    const registry = new Registry();
    const unguarded =
      config.METRICS_PORT !== undefined &&
      config.METRICS_TOKEN === undefined &&
      !isLoopbackHost(config.METRICS_HOST);
    if (unguarded) app.log.warn(unguardedMetricsMessage(config.METRICS_HOST));
    const port = unguarded ? undefined : config.METRICS_PORT;
    const enabled = port !== undefined || config.METRICS_TOKEN !== undefined;
    const collectorFailures = new Counter({
      name: "site_metrics_collector_failures_total",
      help: "Scrapes that left a gauge out because reading it failed or took too long, by gauge (a scrape shows those before it).",
      labelNames: ["gauge"],
      registers: [registry],
    });

    app.decorate("metrics", {
      gauge<L extends string = never>(gauge: ScrapedGauge<L>) {
        // At 0 from the start, so an alert on its increase sees the first failure.
        collectorFailures.inc({ gauge: gauge.name }, 0);
        const failed = (error: unknown) => {
          collectorFailures.inc({ gauge: gauge.name });
          app.log.warn({ err: error, gauge: gauge.name }, "a metric could not be read");
        };
        registry.registerMetric(scrapedGauge(gauge, failed) as unknown as Metric);
      },
    });
    if (!enabled) return;

    // Event loop delay (nodejs_eventloop_lag_*), memory, CPU, handles.
    collectDefaultMetrics({ register: registry });
    countRequests(app, registry);
    databaseFigures(registry, database);

    const exposition = async () => ({
      contentType: registry.contentType,
      body: await registry.metrics(),
    });
    if (config.METRICS_TOKEN !== undefined) {
      const expected = createHash("sha256").update(config.METRICS_TOKEN).digest();
      app.get(METRICS_PATH, { logLevel: "warn" }, async (request, reply) => {
        if (!isToken(request.headers.authorization, expected)) return reply.callNotFound();
        const { contentType, body } = await exposition();
        return reply.type(contentType).header("cache-control", "no-store").send(body);
      });
    }
    if (port !== undefined) {
      const host = config.METRICS_HOST;
      const server = metricsServer(exposition, config.METRICS_TOKEN);
      app.addHook("onReady", async () => {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, host, () => {
            server.off("error", reject);
            resolve();
          });
        });
        const { address, port: bound } = server.address() as AddressInfo;
        app.log.info({ address, port: bound }, METRICS_SERVED_MESSAGE);
      });
      app.addHook("onClose", async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
  },
  { name: "metrics" },
);

/**
 * The second listener: /metrics and nothing else, no logging, no cookies.
 * The token, when set, is asked here too: the port may be bound beyond the
 * host (METRICS_HOST=0.0.0.0 for a scraper on another machine). Without it
 * the port is on the loopback, where a request a proxy forwarded is still a
 * stranger's: it gets the 404.
 */
function metricsServer(
  exposition: () => Promise<{ contentType: string; body: string }>,
  token: string | undefined,
): Server {
  const expected = token === undefined ? null : createHash("sha256").update(token).digest();
  return createServer((request, response) => {
    const path = request.url?.split("?")[0];
    const allowed =
      expected === null
        ? FORWARDING_HEADERS.every((name) => request.headers[name] === undefined)
        : isToken(request.headers.authorization, expected);
    if (path !== METRICS_PATH || request.method !== "GET" || !allowed) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    exposition().then(
      ({ contentType, body }) =>
        response
          .writeHead(200, { "content-type": contentType, "cache-control": "no-store" })
          .end(body),
      () => response.writeHead(500).end(),
    );
  });
}

/**
 * One histogram observation per request, in an onResponse hook each route is
 * given when it is added, so the route pattern is known without looking at
 * the request; requests no route matched share one label, and so do the
 * routes that set config.metricsRoute to the same one.
 */
function countRequests(app: FastifyInstance, registry: Registry) {
  const durations = new HttpDurations();
  registry.registerMetric(durations as unknown as Metric);
  app.addHook("onRoute", (route) => {
    // Found at the route's first answer, not now: the onRoute hook of the
    // plugin that adds the route (site.ts's) runs after this one, and may
    // still set config.metricsRoute.
    let series: RouteDurations | undefined;
    const observe = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      series ??= durations.route(route.config?.metricsRoute ?? route.url);
      series.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [observe] : [...[own].flat(), observe];
  });
  const unmatched = durations.route(UNMATCHED_ROUTE);
  app.addHook("onResponse", (request, reply, done) => {
    if (request.is404)
      unmatched.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

function databaseFigures(registry: Registry, { usage }: DatabaseHandle) {
  new Counter({
    name: "site_db_query_errors_total",
    help: "Database queries that failed (a conflict, a lost connection, a time-out).",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(usage.queryErrors);
    },
  });
  const { pool } = usage;
  if (!pool) return;
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge(
    "site_db_pool_connections",
    "PostgreSQL connections open in the pool.",
    () => pool.totalCount,
  );
  poolGauge(
    "site_db_pool_idle_connections",
    "PostgreSQL connections open and idle.",
    () => pool.idleCount,
  );
  poolGauge(
    "site_db_pool_waiting_queries",
    "Queries waiting for a PostgreSQL connection (the pool is at its size).",
    () => pool.waitingCount,
  );
}
