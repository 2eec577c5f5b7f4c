/** The console's people routes (filled in by the people work of issue 9). */
import type { FastifyInstance } from "fastify";
import type { AdminAreaOptions } from "./plugin.ts";

export default async function peopleRoutes(_app: FastifyInstance, _options: AdminAreaOptions) {}
