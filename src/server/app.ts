/**
 * Builds the one Fastify server: security first, then the API under /api/v1,
 * the health probes, and the built site. Each concern is its own plugin.
 */
import { randomUUID } from "node:crypto";
import compress from "@fastify/compress";
import Fastify, { type FastifyServerOptions } from "fastify";
import api from "./api/routes.ts";
import { oneClickUnsubscribe, unsubscribeApi } from "./api/unsubscribe.ts";
import { validateWithZod } from "./api/validation.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/connection.ts";
import { MailQueue } from "./mail/mail-queue.ts";
import gracefulClose from "./ops/graceful-close.ts";
import health from "./ops/health.ts";
import errors from "./security/errors.ts";
import headers from "./security/headers.ts";
import rateLimit from "./security/rate-limit.ts";
import { unsubscribeSecret } from "./security/unsubscribe-token.ts";
import xsrf from "./security/xsrf.ts";
import { inlineScriptHashes } from "./static/inline-scripts.ts";
import site from "./static/site.ts";

const BODY_LIMIT_BYTES = 64 * 1024;

declare module "fastify" {
  interface FastifyInstance {
    /** Queues e-mail; main.ts points its onQueued at the outbox sender. */
    mailQueue: MailQueue;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions["logger"];
}

export async function buildApp({ config, database, logger }: AppOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  });
  validateWithZod(app);
  const secret = await unsubscribeSecret(database.db, config.UNSUBSCRIBE_SECRET);
  const mail = new MailQueue({
    from: config.MAIL_FROM,
    inquiryTo: config.INQUIRY_TO,
    acknowledgeInquiries: config.INQUIRY_ACK,
    publicOrigin: config.PUBLIC_ORIGIN,
    unsubscribeSecret: secret,
  });
  app.decorate("mailQueue", mail);

  await app.register(gracefulClose);
  await app.register(errors);
  await app.register(headers, { inlineScriptHashes: await inlineScriptHashes(config.STATIC_DIR) });
  await app.register(compress, { encodings: ["br", "gzip"] });
  await app.register(xsrf);
  await app.register(rateLimit);
  await app.register(
    async (v1) => {
      await v1.register(api, { database, mail, writesPerMinute: config.RATE_LIMIT_PER_MINUTE });
      await v1.register(unsubscribeApi, { database, secret });
    },
    { prefix: "/api/v1" },
  );
  await app.register(oneClickUnsubscribe, { database, secret });
  await app.register(health, { database });
  await app.register(site, { root: config.STATIC_DIR });
  return app;
}
