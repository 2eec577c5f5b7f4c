/**
 * Turned-away posts (ADR 036): what the forms' traps caught is kept for
 * TURNED_AWAY_KEEP_DAYS, so the firm can release a person's post the traps
 * took for a script's. The public routes keep a trapped post through
 * `app.turnedAway.keep`; the console lists, releases and deletes them.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { runPeriodically } from "../../platform/ops/periodic.ts";
import turnedAwayRoutes from "./console.ts";
import { keepPost, type PostToKeep, purgePosts } from "./queries.ts";

export { keepPost, type PostToKeep } from "./queries.ts";

declare module "fastify" {
  interface FastifyInstance {
    turnedAway: {
      /** Keeps a trapped post; a failure is logged, never thrown: the sender must learn nothing. */
      keep(post: PostToKeep, log: FastifyBaseLogger): Promise<void>;
    };
  }
}

export interface TurnedAwayOptions extends AdminAreaOptions {
  /** The clock of the keeping and the purge (epoch ms); tests pass their own. */
  now?: () => number;
}

/** How often each instance purges; a purge is one DELETE, so instances purging at once never clash. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

function purgeOnStartAndHourly(app: FastifyInstance, database: DatabaseHandle, now: () => number) {
  runPeriodically(app, {
    what: "purging turned-away posts",
    everyMs: PURGE_INTERVAL_MS,
    awaitFirst: true,
    run: async () => {
      const purged = await purgePosts(database.db, new Date(now()));
      if (purged > 0) app.log.info({ purged }, "purged turned-away posts past their keeping");
    },
  });
}

export default fp(
  async function turnedAway(
    app: FastifyInstance,
    { config, database, now = Date.now }: TurnedAwayOptions,
  ) {
    app.decorate("turnedAway", {
      keep: (post: PostToKeep, log: FastifyBaseLogger) =>
        keepPost(database.db, post, new Date(now())).catch((error: unknown) =>
          log.error({ err: error }, "could not keep a turned-away post"),
        ),
    });
    purgeOnStartAndHourly(app, database, now);
    await app.register(turnedAwayRoutes, { config, database });
  },
  { name: "turned-away", dependencies: ["console", "outbox", "inquiries", "subscriptions"] },
);
