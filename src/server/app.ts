/**
 * Builds the one Fastify server: security first, then mail, the public API
 * (/api/v1), the health probes, and the built site. Each concern is its own plugin;
 * every route's schema is a Zod schema, and its types come from it.
 */
import { randomUUID } from "node:crypto";
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
import admin from "./admin/plugin.ts";
import confirmSubscription from "./api/confirm-subscription.ts";
import apiContract from "./api/contract.ts";
import api from "./api/routes.ts";
import { oneClickUnsubscribe, unsubscribeApi } from "./api/unsubscribe.ts";
import type { Config } from "./config.ts";
import content from "./content/plugin.ts";
import type { DatabaseHandle } from "./db/connection.ts";
import textBodies from "./http/text-bodies.ts";
import mail from "./mail/plugin.ts";
import newsletter from "./newsletter/plugin.ts";
import gracefulClose from "./ops/graceful-close.ts";
import health from "./ops/health.ts";
import { privateLoggerSettings } from "./ops/logger.ts";
import overload from "./ops/overload.ts";
import { serverTimeouts } from "./ops/timeouts.ts";
import crawlers from "./pages/crawlers.ts";
import pages from "./pages/plugin.ts";
import type { PageRenderer } from "./pages/renderer.ts";
import botDefence from "./security/bot-defence.ts";
import errors from "./security/errors.ts";
import headers from "./security/headers.ts";
import rateLimit from "./security/rate-limit.ts";
import { signingSecret } from "./security/signing-secret.ts";
import { proxyTrust } from "./security/trust-proxy.ts";
import xsrf from "./security/xsrf.ts";
import canonicalPaths from "./static/canonical-paths.ts";
import site from "./static/site.ts";

const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions["logger"];
  /** The server's logger (ops/logger.ts), made before the app; takes the place of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Renders the pages (from the server build); null serves the API only. */
  renderer: PageRenderer | null;
  /** The HTTP server to serve on (`npm run dev` puts Vite's middleware in front). */
  serverFactory?: FastifyServerFactory<Server>;
  /** The clock the forms' minimum time-to-submit is measured with (epoch ms); tests pass their own. */
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
  const app = Fastify({
    ...(serverFactory ? { serverFactory } : {}),
    ...(loggerInstance
      ? { loggerInstance }
      : { logger: privateLoggerSettings(logger ?? { level: config.LOG_LEVEL }) }),
    trustProxy: proxyTrust(config.TRUST_PROXY),
    ...serverTimeouts(config),
    // A request arriving on an open connection while the server closes is
    // served (ops/graceful-close.ts), not refused with 503.
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secret = await signingSecret(database.db, config.UNSUBSCRIBE_SECRET);

  await app.register(gracefulClose);
  await app.register(errors);
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
  await app.register(mail, { config, database, signingSecret: secret });
  await app.register(content, { database, databaseUrl: config.DATABASE_URL });
  await app.register(newsletter, { config, database });
  await app.register(pages, {
    renderer,
    origin: config.PUBLIC_ORIGIN,
    secret,
  });
  await app.register(crawlers, { origin: config.PUBLIC_ORIGIN });
  await app.register(api);
  await app.register(unsubscribeApi, { database, secret });
  await app.register(oneClickUnsubscribe, { database, secret });
  await app.register(confirmSubscription, { config, database, secret });
  await app.register(admin, { config, database });
  await app.register(health, { database });
  await app.register(site, { root: config.STATIC_DIR });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
