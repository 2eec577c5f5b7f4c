/**
 * Every API route declares the answers it may give: a route under /api/
 * without a Zod response schema for a success status fails the server's
 * start. A response schema also keeps a route from sending a column it did
 * not mean to (Zod drops unknown keys when it serializes).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { API_ROOT } from "../../../shared/api-paths.ts";

export default fp(
  async function apiContract(app: FastifyInstance) {
    app.addHook("onRoute", (route) => {
      if (!route.url?.startsWith(API_ROOT) || route.method === "HEAD") return;
      const codes = Object.keys(route.schema?.response ?? {});
      if (!codes.some((code) => code.startsWith("2"))) {
        throw new Error(
          `${route.method} ${route.url} declares no response schema for its success answer`,
        );
      }
    });
  },
  { name: "api-contract" },
);
