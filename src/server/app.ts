/**
 * Builds the one Fastify server: the platform first (security, the outbox,
 * the console's gate), then each feature with its routes, the health probes,
 * and the built site. Each is its own plugin; every route's schema is a Zod
 * schema, and its types come from it.
 */
import type { Server } from "node:http";
import compress from "@fastify/compress";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyServerFactory,
  type FastifyServerOptions,
} from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { ROUTES } from "../shared/routes.ts";
import audience, { audienceFigures } from "./features/audience/index.ts";
import backups from "./features/backups/index.ts";
import content from "./features/content/index.ts";
import deliverability, {
  recordRefusals,
  recordSoftBounces,
  softBouncePolicy,
} from "./features/deliverability/index.ts";
import inquiries, { notificationAlarm } from "./features/inquiries/index.ts";
import mailSettings, { currentMailSettings } from "./features/mail-settings/index.ts";
import newsletter, { newsletterComposer } from "./features/newsletter/index.ts";
import publicSite, { type PageRenderer } from "./features/pages/index.ts";
import people from "./features/people/index.ts";
import subscriptions from "./features/subscriptions/index.ts";
import turnedAway from "./features/turned-away/index.ts";
import webhooks from "./features/webhooks/index.ts";
import consoleService from "./platform/console/plugin.ts";
import type { DatabaseHandle } from "./platform/db/connection.ts";
import apiContract from "./platform/http/api-contract.ts";
import textBodies from "./platform/http/text-bodies.ts";
import dailyPurge from "./platform/ops/daily-purge.ts";
import gracefulClose from "./platform/ops/graceful-close.ts";
import health from "./platform/ops/health.ts";
import { privateLoggerSettings } from "./platform/ops/logger.ts";
import metrics from "./platform/ops/metrics.ts";
import overload from "./platform/ops/overload.ts";
import requestIdHeader, { requestIds } from "./platform/ops/request-id.ts";
import { serverTimeouts } from "./platform/ops/timeouts.ts";
import outbox from "./platform/outbox/plugin.ts";
import botDefence from "./platform/security/bot-defence.ts";
import errors from "./platform/security/errors.ts";
import headers from "./platform/security/headers.ts";
import rateLimit from "./platform/security/rate-limit.ts";
import { signingSecret } from "./platform/security/signing-secret.ts";
import { proxyTrust } from "./platform/security/trust-proxy.ts";
import xsrf from "./platform/security/xsrf.ts";
import canonicalPaths from "./platform/static/canonical-paths.ts";
import site from "./platform/static/site.ts";
import type { Config } from "./settings.ts";

const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions["logger"];
  /** The server's logger (platform/ops/logger.ts), made before the app; takes the place of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Renders the pages (from the server build); null serves the API only. */
  renderer: PageRenderer | null;
  /** The HTTP server to serve on (`npm run dev` puts Vite's middleware in front). */
  serverFactory?: FastifyServerFactory<Server>;
  /**
   * The clock the forms' minimum time-to-submit, the subscribe mail's
   * cooldown, scheduled drafts, preview links, scheduled backups and the
   * daily purge are
   * measured with (epoch ms); tests pass their own.
   */
  now?: () => number;
}

export async function buildApp({
  config,
  database,
  logger,
  loggerInstance,
  renderer,
  serverFactory,
  now,
}: AppOptions) {
  const trustProxy = proxyTrust(config.TRUST_PROXY);
  const app = Fastify({
    ...(serverFactory ? { serverFactory } : {}),
    ...(loggerInstance
      ? { loggerInstance }
      : { logger: privateLoggerSettings(logger ?? { level: config.LOG_LEVEL }) }),
    trustProxy,
    ...serverTimeouts(config),
    // A request arriving on an open connection while the server closes is
    // served (platform/ops/graceful-close.ts), not refused with 503.
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIds(trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secret = await signingSecret(database.db, config.UNSUBSCRIBE_SECRET);

  await app.register(gracefulClose);
  await app.register(requestIdHeader);
  await app.register(dailyPurge, { database, ...(now ? { now } : {}) });
  await app.register(errors);
  // Before any route, so each is counted (its onRoute hook); before the
  // outbox and the features, which add their gauges to it.
  await app.register(metrics, { config, database });
  await app.register(textBodies);
  await app.register(headers, { captcha: config.CAPTCHA_PROVIDER });
  await app.register(overload, { maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS });
  await app.register(compress, { encodings: ["br", "gzip"] });
  await app.register(xsrf, { origin: config.PUBLIC_ORIGIN, secret });
  await app.register(botDefence, { config, database, ...(now ? { now } : {}) });
  await app.register(rateLimit, {
    publicWritesPerMinute: config.RATE_LIMIT_PER_MINUTE,
    consoleWritesPerMinute: config.RATE_LIMIT_CONSOLE_PER_MINUTE,
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
  });
  await app.register(canonicalPaths);
  await app.register(apiContract);
  // An inquiry the firm was not told of: when the outbox gives up, or a bounce comes back later.
  const alarm = notificationAlarm({ config, db: database.db, log: app.log });
  await app.register(outbox, {
    config,
    database,
    secret,
    onRefused: recordRefusals(database.db, softBouncePolicy(config)),
    onSoftBounce: recordSoftBounces(database.db, softBouncePolicy(config)),
    ...(alarm ? { onGaveUp: ({ claimed, reason }) => alarm(claimed.id, reason) } : {}),
    composeNewsletter: newsletterComposer({
      db: database.db,
      from: async (db) => (await currentMailSettings(db, config)).from,
      publicOrigin: config.PUBLIC_ORIGIN,
      signingSecret: secret,
    }),
  });
  await app.register(consoleService, { config, database });
  // The features; each names the plugins it needs (fastify-plugin's
  // dependencies), and the start fails when one is missing.
  const area = { config, database };
  // Before the features that mail: they read the settings in force from it.
  await app.register(mailSettings, area);
  await app.register(content, { ...area, secret, ...(now ? { now } : {}) });
  // Before the features whose writes announce events to the firm's tools.
  await app.register(webhooks, { ...area, ...(now ? { now } : {}) });
  await app.register(inquiries, area);
  await app.register(subscriptions, { ...area, secret, now });
  await app.register(turnedAway, { ...area, ...(now ? { now } : {}) });
  await app.register(newsletter, { ...area, ...(now ? { now } : {}) });
  await app.register(deliverability, {
    ...area,
    secret,
    ...(now ? { now } : {}),
    ...(alarm ? { onHardBounce: alarm } : {}),
  });
  await app.register(people, { ...area, secret, ...(now ? { now } : {}) });
  await app.register(backups, { ...area, now });
  await app.register(audienceFigures, { ...area, now });
  // Counts the pages the next plugin serves, after each answer has gone.
  await app.register(audience, { ...area, secret, ...(now ? { now } : {}) });
  await app.register(publicSite, { renderer, origin: config.PUBLIC_ORIGIN, secret });
  const pages = app.pages;
  await app.register(health, {
    database,
    homePage: pages ? () => pages.get(ROUTES.home) : null,
  });
  await app.register(site, { root: config.STATIC_DIR });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
