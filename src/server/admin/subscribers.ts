/** The console's subscribers routes (filled in by the subscribers work of issue 9). */
import type { FastifyInstance } from "fastify";
import type { AdminAreaOptions } from "./plugin.ts";

export default async function subscribersRoutes(
  _app: FastifyInstance,
  _options: AdminAreaOptions,
) {}
