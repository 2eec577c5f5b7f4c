/**
 * The site facts in the console: an editor reads them,
 * saves all five at once on the version they loaded, lists their versions
 * and restores one. Registered inside the content area (features/content/console.ts).
 * Every write goes through SiteFactsEditor (app.content.edit), so the pages
 * change on the next request, is versioned, and is audited; a ContentRefusal
 * is answered with its status, message and fields.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  SITE_FACTS_PATHS,
  siteFactsAnswerSchema,
  siteFactsRestoreSchema,
  siteFactsSaveSchema,
  siteFactsVersionsSchema,
} from "../../../shared/admin/site-facts.ts";
import { rowIdSchema } from "../../../shared/row-id.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import { authorOf } from "../../platform/console/author.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { SiteFactsEditor } from "./site-facts.ts";
import type { StoredFacts } from "./site-facts-rows.ts";

const versionParams = z.object({ version: rowIdSchema });
const editor = { role: "editor" } as const;
const TARGET = "site-facts";

/** The facts as the console shows them. */
const answer = ({ facts, version, updatedAt }: StoredFacts) => ({
  version,
  updatedAt,
  fields: facts,
});

export default async function siteFactsRoutes(
  app: FastifyInstance,
  { database }: { database: DatabaseHandle },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const facts = new SiteFactsEditor(app.content, database.db);

  routes.get(
    SITE_FACTS_PATHS.facts,
    { schema: { response: { 200: siteFactsAnswerSchema } }, config: editor },
    async () => answer(await facts.current()),
  );

  routes.put(
    SITE_FACTS_PATHS.facts,
    {
      schema: {
        body: siteFactsSaveSchema,
        response: { 200: siteFactsAnswerSchema, 409: fieldRefusalSchema },
      },
      config: editor,
    },
    async (request) => {
      const { version, fields } = request.body;
      const saved = await app.consoleWrite(request, "content-saved", async (trx, audit) => {
        const saved = await facts.within(trx).save(version, fields, authorOf(request));
        audit.subject = TARGET;
        audit.detail = { changed: saved.changed, version: saved.version };
        return saved;
      });
      return answer(saved);
    },
  );

  routes.get(
    SITE_FACTS_PATHS.versions,
    { schema: { response: { 200: siteFactsVersionsSchema } }, config: editor },
    async () => ({
      versions: (await facts.versions()).map(({ data, ...version }) => ({
        ...version,
        fields: data,
      })),
    }),
  );

  routes.post(
    SITE_FACTS_PATHS.restore(":version"),
    {
      schema: {
        params: versionParams,
        body: siteFactsRestoreSchema,
        response: { 200: siteFactsAnswerSchema, 404: fieldRefusalSchema, 409: fieldRefusalSchema },
      },
      config: editor,
    },
    async (request) => {
      const from = request.params.version;
      const restored = await app.consoleWrite(request, "content-restored", async (trx, audit) => {
        const restored = await facts
          .within(trx)
          .restore(request.body.version, from, authorOf(request));
        audit.subject = TARGET;
        audit.detail = { from, changed: restored.changed, version: restored.version };
        return restored;
      });
      return answer(restored);
    },
  );
}
