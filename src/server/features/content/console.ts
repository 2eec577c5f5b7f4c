/**
 * The console's content: for each of the six lists, an
 * editor lists every record (hidden ones too), creates, saves, hides or
 * shows, reorders, and restores earlier versions; keeps drafts and
 * publishes them (draft-console.ts); edits the site facts
 * (features/content/site-facts-console.ts); and uploads pictures. Every write goes through
 * ContentEditor (app.content.edit), so the public pages change on the next
 * request, is versioned, and is audited. Pictures are served from MEDIA_DIR
 * where the pages look for them (platform/media/files.ts).
 */
import multipart from "@fastify/multipart";
import type { FastifyError, FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import {
  CONTENT_LISTS,
  CONTENT_PATHS,
  CONTENT_TEXTS,
  createSchemaOf,
  entrySchema,
  imageUrl,
  LIST_SPECS,
  type ListSpec,
  listAnswerSchema,
  MEDIA_API,
  reorderSchema,
  restoreSchema,
  saveSchemaOf,
  uploadAnswerSchema,
  uploadQuerySchema,
  versionsAnswerSchema,
  visibilitySchema,
} from "../../../shared/admin/content.ts";
import { idParamsSchema, rowIdSchema } from "../../../shared/row-id.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { authorOf } from "../../platform/console/author.ts";
import type { Database } from "../../platform/db/schema.ts";
import mediaFiles from "../../platform/media/files.ts";
import { storeImage } from "../../platform/media/images.ts";
import { recordMedia } from "../../platform/media/media-rows.ts";
import { refuse } from "../../platform/refusal.ts";
import type { StoredEntry } from "./admin-queries.ts";
import draftRoutes, { type DraftRoutesOptions } from "./draft-console.ts";
import { listedDrafts, rebaseDraft } from "./draft-rows.ts";
import { ContentEditor, type OrderedList } from "./editing.ts";
import type { ContentSettings } from "./server-settings.ts";
import siteFactsRoutes from "./site-facts-console.ts";

const MEGABYTE = 1024 * 1024;

const versionParams = idParamsSchema.extend({ version: rowIdSchema });
const editor = { role: "editor" } as const;

export interface ContentRoutesOptions extends AdminAreaOptions<ContentSettings> {
  drafts: Omit<DraftRoutesOptions, "database">;
}

export default async function contentRoutes(
  app: FastifyInstance,
  { config, database, drafts }: ContentRoutesOptions,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const content = new ContentEditor(app.content, database.db);

  for (const list of CONTENT_LISTS) {
    registerList(LIST_SPECS[list]);
  }
  // The site facts: one record of five fields.
  await app.register(siteFactsRoutes, { database });
  // The records' drafts.
  await app.register(draftRoutes, { database, ...drafts });

  function registerList(spec: ListSpec) {
    const { list } = spec;
    const target = (id: number) => `${list}:${id}`;
    const titleOf = (entry: StoredEntry) => entry.fields[spec.titleField];
    /** A list as the console shows it: with which records have a draft waiting. */
    const withDrafts = async (ordered: OrderedList, db: Kysely<Database> = database.db) => ({
      ...ordered,
      drafts: await listedDrafts(db, list),
    });

    routes.get(
      CONTENT_PATHS.list(list),
      { schema: { response: { 200: listAnswerSchema } }, config: editor },
      async () => withDrafts(await content.list(spec)),
    );

    routes.post(
      CONTENT_PATHS.list(list),
      {
        schema: {
          body: createSchemaOf(spec),
          response: { 201: entrySchema, 409: fieldRefusalSchema },
        },
        config: editor,
      },
      async (request, reply) => {
        const entry = await app.consoleWrite(request, "content-created", async (trx, audit) => {
          const entry = await content.within(trx).create(spec, request.body, authorOf(request));
          audit.subject = target(entry.id);
          audit.detail = { title: titleOf(entry) };
          return entry;
        });
        return reply.code(201).send(entry);
      },
    );

    routes.put(
      CONTENT_PATHS.order(list),
      {
        schema: {
          body: reorderSchema,
          response: { 200: listAnswerSchema, 409: fieldRefusalSchema },
        },
        config: editor,
      },
      async (request) => {
        const { orderVersion, ids } = request.body;
        return app.consoleWrite(request, "content-reordered", async (trx, audit) => {
          const ordered = await content
            .within(trx)
            .reorder(spec, orderVersion, ids, authorOf(request));
          audit.subject = list;
          audit.detail = { ids };
          return withDrafts(ordered, trx);
        });
      },
    );

    routes.get(
      CONTENT_PATHS.entry(list, ":id"),
      { schema: { params: idParamsSchema, response: { 200: entrySchema } }, config: editor },
      (request) => content.find(spec, request.params.id),
    );

    routes.put(
      CONTENT_PATHS.entry(list, ":id"),
      {
        schema: {
          params: idParamsSchema,
          body: saveSchemaOf(spec),
          response: { 200: entrySchema, 409: fieldRefusalSchema },
        },
        config: editor,
      },
      async (request) => {
        const { version, ...state } = request.body;
        return app.consoleWrite(request, "content-saved", async (trx, audit) => {
          const entry = await content
            .within(trx)
            .save(spec, request.params.id, version, state, authorOf(request));
          audit.subject = target(entry.id);
          audit.detail = { title: titleOf(entry), version: entry.version };
          return entry;
        });
      },
    );

    routes.put(
      CONTENT_PATHS.visibility(list, ":id"),
      {
        schema: {
          params: idParamsSchema,
          body: visibilitySchema,
          response: { 200: entrySchema, 409: fieldRefusalSchema },
        },
        config: editor,
      },
      async (request) => {
        const { version, hidden } = request.body;
        const action = hidden ? "content-hidden" : "content-shown";
        return app.consoleWrite(request, action, async (trx, audit) => {
          const entry = await content
            .within(trx)
            .setHidden(spec, request.params.id, version, hidden, authorOf(request));
          await rebaseDraft(trx, list, entry.id, version, entry.version);
          audit.subject = target(entry.id);
          audit.detail = { title: titleOf(entry), version: entry.version };
          return entry;
        });
      },
    );

    routes.get(
      CONTENT_PATHS.versions(list, ":id"),
      {
        schema: { params: idParamsSchema, response: { 200: versionsAnswerSchema } },
        config: editor,
      },
      async (request) => {
        const versions = await content.versions(spec, request.params.id);
        return {
          versions: versions.map(({ data, ...version }) => ({ ...version, ...data })),
        };
      },
    );

    routes.post(
      CONTENT_PATHS.restore(list, ":id", ":version"),
      {
        schema: {
          params: versionParams,
          body: restoreSchema,
          response: { 200: entrySchema, 409: fieldRefusalSchema },
        },
        config: editor,
      },
      async (request) => {
        const { id, version: from } = request.params;
        return app.consoleWrite(request, "content-restored", async (trx, audit) => {
          const entry = await content
            .within(trx)
            .restore(spec, id, request.body.version, from, authorOf(request));
          audit.subject = target(id);
          audit.detail = { title: titleOf(entry), from, version: entry.version };
          return entry;
        });
      },
    );
  }

  // Pictures: one file per request, refused by its size while it arrives.
  await app.register(multipart, {
    limits: { fileSize: config.UPLOAD_MAX_MB * MEGABYTE, files: 1, fields: 0, parts: 1 },
  });
  await app.register(mediaFiles, { root: config.MEDIA_DIR });

  /**
   * A body that is not multipart, or multipart cut or written wrong, holds
   * no file the server can read: the sender's fault, said as such (the
   * parser's own errors carry no status and would answer 500).
   */
  const unreadableUpload = (error: FastifyError): never => {
    if (error.statusCode !== undefined && error.statusCode < 500) throw error;
    throw refuse.badRequest(CONTENT_TEXTS.noFile);
  };

  routes.post(
    MEDIA_API,
    {
      schema: { querystring: uploadQuerySchema, response: { 201: uploadAnswerSchema } },
      config: editor,
    },
    async (request, reply) => {
      const { kind } = request.query;
      const file = await request.file().catch(unreadableUpload);
      if (!file) throw refuse.badRequest(CONTENT_TEXTS.noFile);
      const bytes = await file.toBuffer().catch((error: unknown) => {
        throw error instanceof app.multipartErrors.RequestFileTooLargeError
          ? refuse.tooLarge(CONTENT_TEXTS.tooLarge(config.UPLOAD_MAX_MB))
          : error;
      });
      const { focusX, focusY } = request.query;
      const focus =
        focusX !== undefined && focusY !== undefined ? { x: focusX, y: focusY } : undefined;
      const image = await storeImage(bytes, kind, config.MEDIA_DIR, focus);
      await app.consoleWrite(request, "media-uploaded", async (trx, audit) => {
        const id = await recordMedia(trx, image, request.user?.id ?? null);
        audit.subject = `media:${id}`;
        audit.detail = { kind, file: file.filename, bytes: image.bytes };
      });
      return reply.code(201).send({
        imagePath: image.imagePath,
        url: imageUrl(kind, image.imagePath),
        width: image.width,
        height: image.height,
      });
    },
  );
}
