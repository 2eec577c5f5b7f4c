/**
 * The console's turned-away posts (ADR 036): viewers read them; an editor
 * releases one (stored and mailed as if it had just arrived) or deletes it.
 * Each change commits with its audit entry.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  releasedSchema,
  TURNED_AWAY_PAGE_SIZE,
  TURNED_AWAY_ROUTES,
  TURNED_AWAY_TEXTS,
  turnedAwayIdSchema,
  turnedAwayListQuerySchema,
  turnedAwayListSchema,
} from "../../../shared/admin/turned-away.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { refuse } from "../../platform/refusal.ts";
import { listPosts, takePost } from "./queries.ts";
import { releasePost } from "./release.ts";
import type { TurnedAwaySettings } from "./server-settings.ts";

const targetOf = (id: number) => `turned-away:${id}`;

export default async function turnedAwayRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions<TurnedAwaySettings>,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    TURNED_AWAY_ROUTES.list,
    {
      schema: { querystring: turnedAwayListQuerySchema, response: { 200: turnedAwayListSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const { page } = request.query;
      const { posts, total } = await listPosts(db, page);
      return {
        days: config.TURNED_AWAY_RETENTION_DAYS,
        posts,
        total,
        page,
        pageSize: TURNED_AWAY_PAGE_SIZE,
      };
    },
  );

  routes.post(
    TURNED_AWAY_ROUTES.release,
    {
      schema: { params: turnedAwayIdSchema, response: { 200: releasedSchema } },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      const message = await app.consoleWrite(
        request,
        "turned-away-released",
        async (trx, audit) => {
          const post = await takePost(trx, id);
          if (!post) throw refuse.notFound(TURNED_AWAY_TEXTS.notFound);
          audit.subject = targetOf(id);
          audit.detail = { form: post.form };
          return releasePost(app, trx, post);
        },
      );
      return { message };
    },
  );

  routes.delete(
    TURNED_AWAY_ROUTES.one,
    {
      schema: { params: turnedAwayIdSchema, response: { 204: z.null() } },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      await app.consoleWrite(request, "turned-away-deleted", async (trx, audit) => {
        const post = await takePost(trx, id);
        if (!post) throw refuse.notFound(TURNED_AWAY_TEXTS.notFound);
        audit.subject = targetOf(id);
        audit.detail = { form: post.form };
      });
      return reply.code(204).send(null);
    },
  );
}
