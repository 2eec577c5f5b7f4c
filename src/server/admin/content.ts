/** The console's content routes (filled in by the content work of issue 9). */
import type { FastifyInstance } from "fastify";
import type { AdminAreaOptions } from "./plugin.ts";

export default async function contentRoutes(_app: FastifyInstance, _options: AdminAreaOptions) {}
