/**
 * The Audience area's reading side: the console's figures over a range of
 * days beside the period before (viewers and up), the CSV of its tables,
 * and the owners' optional weekly digest (AUDIENCE_DIGEST). It reads the
 * daily rollups the counting fills and the source each lead recorded; it
 * writes nothing but the digest's weeks.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { MailDefaultSettings } from "../mail-settings/index.ts";
import audienceRoutes from "./console.ts";
import { DigestScheduler } from "./digest.ts";
import type { AudienceSettings } from "./server-settings.ts";

export default fp(
  async function audienceFigures(
    app: FastifyInstance,
    options: AdminAreaOptions<AudienceSettings & MailDefaultSettings> & {
      now?: (() => number) | undefined;
    },
  ) {
    const { config, database } = options;
    const now = options.now ?? Date.now;
    await app.register(audienceRoutes, { config, database, now });
    if (!config.AUDIENCE_DIGEST) return;
    const scheduler = new DigestScheduler({
      config,
      database,
      log: app.log,
      withOutbox: (work) => app.withOutbox(work),
      now,
    });
    app.addHook("onReady", async () => scheduler.start());
    app.addHook("onClose", async () => scheduler.stop());
  },
  { name: "audience-figures", dependencies: ["console", "outbox", "mail-settings"] },
);
