/**
 * The console's drafts of a list's records (ADR 044): read, save (the
 * edit screen's autosave), discard, publish now, schedule and unschedule,
 * and a preview link to the public page with the draft in it. Saving a
 * draft changes nothing the site shows, so it is not audited; everything
 * else is, in the transaction of its change. Registered by console.ts.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CONTENT_LISTS,
  entrySchema,
  LIST_SPECS,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import {
  DRAFT_PATHS,
  draftAnswerSchema,
  draftSaveSchemaOf,
  draftSchema,
  PREVIEW_LINK_MINUTES,
  PREVIEW_PARAMETER,
  previewLinkSchema,
  scheduleSchema,
} from "../../../shared/admin/content-drafts.ts";
import type { Role } from "../../../shared/admin/roles.ts";
import { idParamsSchema } from "../../../shared/row-id.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import { authorOf } from "../../platform/console/author.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { draftPagePath } from "./draft-preview.ts";
import type { StoredDraft } from "./draft-rows.ts";
import { DraftEditor } from "./drafts.ts";
import { PREVIEW_PASS_COOKIE, type PreviewSigner } from "./preview-link.ts";

/** Who works on drafts: asks for their preview links, and is let in by a preview pass. */
export const DRAFT_ROLE = "editor" satisfies Role;

const editor = { role: DRAFT_ROLE } as const;

/**
 * The autosave's own limit: one save per 1.5 s of typing is at most 40 a
 * minute, so 90 leaves room for a second tab without letting a script write
 * without end.
 */
const AUTOSAVE_LIMIT = { max: 90, timeWindow: "1 minute" };

export interface DraftRoutesOptions {
  database: DatabaseHandle;
  signer: PreviewSigner;
  now: () => number;
  /** A draft was scheduled here: the publisher works out its next wake-up again. */
  onScheduled: () => void;
}

/** A draft as the console sees it: without the record it belongs to, which the path names. */
function answerOf({ list: _list, recordId: _recordId, userId: _userId, ...draft }: StoredDraft) {
  return draft;
}

/** The page's address with the query before its fragment: /wedo?preview=…#capabilities. */
function withQuery(path: string, name: string, value: string): string {
  const [page, fragment] = path.split("#");
  const query = new URLSearchParams({ [name]: value }).toString();
  return `${page}?${query}${fragment === undefined ? "" : `#${fragment}`}`;
}

export default async function draftRoutes(
  app: FastifyInstance,
  { database, signer, now, onScheduled }: DraftRoutesOptions,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const drafts = new DraftEditor(app.content, database.db, now);
  const refusals = { 404: messageSchema, 409: fieldRefusalSchema };

  for (const list of CONTENT_LISTS) register(LIST_SPECS[list]);

  function register(spec: ListSpec) {
    const { list } = spec;
    const target = (id: number) => `${list}:${id}`;
    const path = (of: (list: ListSpec["list"], id: ":id") => string) => of(list, ":id");

    routes.get(
      path(DRAFT_PATHS.draft),
      { schema: { params: idParamsSchema, response: { 200: draftAnswerSchema } }, config: editor },
      async (request) => {
        const draft = await drafts.find(spec, request.params.id);
        return { draft: draft && answerOf(draft) };
      },
    );

    routes.put(
      path(DRAFT_PATHS.draft),
      {
        schema: {
          params: idParamsSchema,
          body: draftSaveSchemaOf(spec),
          response: { 200: draftSchema, ...refusals },
        },
        config: { ...editor, rateLimit: AUTOSAVE_LIMIT },
      },
      async (request) => {
        const { fields, baseVersion } = request.body;
        const unaudited = "a draft changes nothing the site shows until it is published";
        const draft = await app.consoleWrite(request, { unaudited }, (trx) =>
          drafts.within(trx).save(spec, request.params.id, fields, baseVersion, authorOf(request)),
        );
        return answerOf(draft);
      },
    );

    routes.delete(
      path(DRAFT_PATHS.draft),
      {
        schema: { params: idParamsSchema, response: { 204: z.null(), ...refusals } },
        config: editor,
      },
      async (request, reply) => {
        const { id } = request.params;
        await app.consoleWrite(request, "content-draft-discarded", async (trx, audit) => {
          const draft = await drafts.within(trx).discard(spec, id);
          audit.subject = target(id);
          audit.detail = { title: draft.fields[spec.titleField] };
        });
        return reply.code(204).send(null);
      },
    );

    routes.post(
      path(DRAFT_PATHS.publish),
      {
        schema: { params: idParamsSchema, response: { 200: entrySchema, ...refusals } },
        config: editor,
      },
      async (request) =>
        app.consoleWrite(request, "content-published", async (trx, audit) => {
          const entry = await drafts
            .within(trx)
            .publish(spec, request.params.id, authorOf(request));
          audit.subject = target(entry.id);
          audit.detail = { title: entry.fields[spec.titleField], version: entry.version };
          return entry;
        }),
    );

    routes.put(
      path(DRAFT_PATHS.schedule),
      {
        schema: {
          params: idParamsSchema,
          body: scheduleSchema,
          response: { 200: draftSchema, ...refusals },
        },
        config: editor,
      },
      async (request) => {
        const { id } = request.params;
        const draft = await app.consoleWrite(
          request,
          "content-publish-scheduled",
          async (trx, audit) => {
            const draft = await drafts
              .within(trx)
              .schedule(spec, id, request.body.publishAt, authorOf(request));
            audit.subject = target(id);
            audit.detail = { title: draft.fields[spec.titleField], publishAt: draft.publishAt };
            return draft;
          },
        );
        onScheduled();
        return answerOf(draft);
      },
    );

    routes.delete(
      path(DRAFT_PATHS.schedule),
      {
        schema: { params: idParamsSchema, response: { 200: draftSchema, ...refusals } },
        config: editor,
      },
      async (request) => {
        const { id } = request.params;
        const draft = await app.consoleWrite(
          request,
          "content-publish-unscheduled",
          async (trx, audit) => {
            const draft = await drafts.within(trx).unschedule(spec, id);
            audit.subject = target(id);
            audit.detail = { title: draft.fields[spec.titleField] };
            return draft;
          },
        );
        return answerOf(draft);
      },
    );

    /**
     * A link to the public page with the draft in it, and the preview pass
     * for this browser's session: a cookie for the whole site, since the
     * session's own stays on the console's paths.
     */
    routes.post(
      path(DRAFT_PATHS.preview),
      {
        schema: { params: idParamsSchema, response: { 200: previewLinkSchema, ...refusals } },
        config: editor,
      },
      async (request, reply) => {
        const draft = await drafts.get(spec, request.params.id);
        const expiresAt = now() + PREVIEW_LINK_MINUTES * 60_000;
        const token = signer.link(draft.id, expiresAt);
        reply.setCookie(PREVIEW_PASS_COOKIE, signer.pass(String(request.sessionId)), {
          path: "/",
          httpOnly: true,
          sameSite: "strict",
          secure: request.protocol === "https",
          maxAge: PREVIEW_LINK_MINUTES * 60,
        });
        return {
          url: withQuery(draftPagePath(draft), PREVIEW_PARAMETER, token),
          expiresAt: new Date(expiresAt).toISOString(),
        };
      },
    );
  }
}
