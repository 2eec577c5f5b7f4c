/**
 * The settings slices of running the server: how it stops, how long a
 * client may take, when it sheds load, and the Prometheus figures
 * (platform/ops/metrics.ts).
 */
import { z } from "zod";

export const runningSettings = z
  .object({
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000).meta({
      description: "How long shutdown waits for in-flight requests.",
      comment: "How long a SIGTERM/SIGINT waits for in-flight requests before giving up.",
    }),
    SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(5_000).meta({
      description:
        "On SIGTERM, how long the instance goes on serving while `/readyz` answers 503, so that a balancer polling it stops sending requests; then it refuses new connections (a proxy tries the next instance) and gives the open ones as long again to be closed by the proxy. Keep it above the proxy's idle time-out for its connections to the site (nginx: `keepalive_timeout` in the upstream block). At most `SHUTDOWN_TIMEOUT_MS` ([Upgrades](upgrades.md)).",
      comment:
        "On SIGTERM, /readyz answers 503 for this long while the instance still serves, before it refuses new connections (docs/operations/upgrades.md); above the proxy's idle time-out for its upstream connections, at most SHUTDOWN_TIMEOUT_MS.",
    }),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000).meta({
      description:
        "A whole request (headers and body, so also an upload) must arrive within this, else 408.",
      comment:
        "Time-outs against slow clients: a whole request (headers and body, so also an upload) must arrive within REQUEST_TIMEOUT_MS and its headers within HEADERS_TIMEOUT_MS (else 408); a connection with no traffic either way is closed after CONNECTION_TIMEOUT_MS, an idle keep-alive one after KEEP_ALIVE_TIMEOUT_MS (keep it above the proxy's idle time-out).",
    }),
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000).meta({
      description: "The headers must arrive within this, else 408; at most `REQUEST_TIMEOUT_MS`.",
    }),
    CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000).meta({
      description:
        "A connection with no traffic either way is closed (a client that stops reading).",
    }),
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000).meta({
      description:
        "An idle keep-alive connection is closed; keep it above the proxy's idle time-out.",
    }),
    MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(200).meta({
      description:
        "While the event loop's mean delay over a second is above this, requests get 503 with `Retry-After: 5` (not `/healthz`); `0` switches it off.",
      comment:
        "Load shedding: while the event loop's mean delay over a second is above this, requests get 503 with Retry-After (except /healthz). 0 switches it off.",
    }),
  })
  .superRefine((env, context) => {
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_MS"],
        message: `must not exceed REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS}), which includes the headers`,
      });
    }
    if (env.SHUTDOWN_DRAIN_DELAY_MS > env.SHUTDOWN_TIMEOUT_MS) {
      context.addIssue({
        code: "custom",
        path: ["SHUTDOWN_DRAIN_DELAY_MS"],
        message: `must not exceed SHUTDOWN_TIMEOUT_MS (${env.SHUTDOWN_TIMEOUT_MS}), which bounds the wait for the connections after it`,
      });
    }
  })
  .meta({
    title: "Shutdown, time-outs and load",
    description:
      "How a stop lets the open requests finish, how long a client may take, and when the server turns requests away to keep up.",
  });

export const metricsSettings = z
  .object({
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional().meta({
      description:
        "Serves the Prometheus figures at `/metrics` on this port of their own ([Watching the site](monitoring.md)), bound to `METRICS_HOST`. Unset, and without `METRICS_TOKEN`, nothing is counted or served.",
      comment:
        "Prometheus figures (docs/operations/monitoring.md): their own port, and/or /metrics on PORT for a bearer of the token (>= 32 characters). Neither: none. METRICS_PORT on an address other than the loopback is opened only with the token.",
    }),
    METRICS_HOST: z.string().min(1).default("127.0.0.1").meta({
      description:
        "The address `METRICS_PORT` listens on. Without `METRICS_TOKEN` the port opens only on a loopback address (127.0.0.0/8, `::1`, `localhost`), and answers no request a proxy forwarded there; set to `0.0.0.0`, `::`, another address or a host name, it stays shut until the token is set, and a warning at start says so (ADR 061).",
    }),
    METRICS_TOKEN: z
      .string()
      .min(32, "must be at least 32 characters")
      .regex(
        /^[\x21-\x7e]+$/,
        "may hold only printable ASCII without spaces (it travels in a header)",
      )
      .optional()
      .meta({
        description:
          "A secret of at least 32 printable characters: the figures are also served at `/metrics` on `PORT`, to a request bringing `Authorization: Bearer <token>` (compared in constant time); any other request there gets the site's 404. With `METRICS_PORT` set too, that port asks for it as well.",
      }),
  })
  .meta({
    title: "Metrics",
    description:
      "The Prometheus figures: on a port of their own, and/or at `/metrics` on `PORT` to a scraper bringing the token.",
  });
