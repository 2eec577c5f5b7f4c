/** The console's inquiries routes (filled in by the inquiries work of issue 9). */
import type { FastifyInstance } from "fastify";
import type { AdminAreaOptions } from "./plugin.ts";

export default async function inquiriesRoutes(_app: FastifyInstance, _options: AdminAreaOptions) {}
