/**
 * Turned-away posts (ADR 036): what the forms' traps caught is kept for
 * TURNED_AWAY_RETENTION_DAYS, then goes in the daily purge, so the firm can
 * release a person's post the traps took for a script's. The public routes
 * keep a trapped post through `app.turnedAway.keep`; the console lists,
 * releases and deletes them.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import turnedAwayRoutes from "./console.ts";
import { keepPost, type PostToKeep, purgePosts } from "./queries.ts";
import type { TurnedAwaySettings } from "./server-settings.ts";

export { keepPost, type PostToKeep } from "./queries.ts";

declare module "fastify" {
  interface FastifyInstance {
    turnedAway: {
      /** Keeps a trapped post; a failure is logged, never thrown: the sender must learn nothing. */
      keep(post: PostToKeep, log: FastifyBaseLogger): Promise<void>;
    };
  }
}

export interface TurnedAwayOptions extends AdminAreaOptions<TurnedAwaySettings> {
  /** The clock of the keeping (epoch ms); tests pass their own. */
  now?: () => number;
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
    app.dailyPurge.add({
      what: "turned-away posts",
      run: (at) => purgePosts(database.db, config.TURNED_AWAY_RETENTION_DAYS, at),
    });
    await app.register(turnedAwayRoutes, { config, database });
  },
  {
    name: "turned-away",
    dependencies: ["console", "outbox", "inquiries", "subscriptions", "daily-purge"],
  },
);
