/**
 * The redirect every counted link of an Insight e-mail leads through
 * (ADR 083): it adds one to the link's clicks of the day and sends the
 * browser on to the link's address. The path names the issue and the
 * link's number, the same in every reader's copy, so a click says which
 * link was followed on which day and never who followed it; nothing is set
 * on the browser. A click is counted only when the audience would count its
 * request (no crawler, link scanner that says so, prefetch, Do-Not-Track or
 * Global Privacy Control, nor the firm's own signed-in people, and its
 * address within its views a minute); the browser is sent on either way.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type Kysely, sql } from "kysely";
import { insightLinkParamsSchema } from "../../../shared/insight-link.ts";
import { INSIGHT_LINK_ROUTE } from "../../../shared/routes.ts";
import type { Database } from "../../platform/db/schema.ts";

interface Link {
  issueId: number;
  position: number;
  url: string;
}

/** The link numbered `position` of the issue at `slug`, once its send was asked for. */
async function findLink(
  db: Kysely<Database>,
  slug: string,
  position: number,
): Promise<Link | undefined> {
  const row = await db
    .selectFrom("issue_links")
    .innerJoin("issues", "issues.id", "issue_links.issue_id")
    .select(["issue_links.issue_id", "issue_links.url"])
    .where("issues.slug", "=", slug)
    .where("issue_links.position", "=", position)
    .executeTakeFirst();
  return row && { issueId: row.issue_id, position, url: row.url };
}

/** One more click of `link` on `day`, in one statement however many arrive at once. */
export async function countClick(db: Kysely<Database>, link: Link, day: string): Promise<void> {
  await db
    .insertInto("issue_link_clicks")
    .values({ issue_id: link.issueId, position: link.position, day, clicks: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(["issue_id", "position", "day"])
        .doUpdateSet({ clicks: sql`issue_link_clicks.clicks + 1` }),
    )
    .execute();
}

export default async function linkClickRoutes(
  app: FastifyInstance,
  { db, now }: { db: Kysely<Database>; now: () => number },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      INSIGHT_LINK_ROUTE,
      { schema: { params: insightLinkParamsSchema } },
      async (request, reply) => {
        const link =
          request.params && (await findLink(db, request.params.slug, request.params.position));
        if (!link) return reply.callNotFound();
        if (request.method === "GET" && (await app.audience.admits(request))) {
          const day = new Date(now()).toISOString().slice(0, 10);
          // A click that cannot be counted still leads on: the reader came for the page.
          await countClick(db, link, day).catch((error: unknown) =>
            app.log.error({ err: error }, "counting an Insight link's click failed"),
          );
        }
        return reply.header("cache-control", "no-store").redirect(link.url, 302);
      },
    );
}
