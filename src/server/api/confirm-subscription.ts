// Placeholder while the issue-11 helper builds double opt-in; replaced before commit.
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";

export interface ConfirmSubscriptionOptions {
  config: Config;
  database: DatabaseHandle;
  /** The server's signing secret (the unsubscribe links' secret). */
  secret: string;
}

export default async function confirmSubscription(
  _app: FastifyInstance,
  _options: ConfirmSubscriptionOptions,
) {}
