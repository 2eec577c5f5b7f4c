/**
 * The console's subscriber import: a preview of the file, a dry run that
 * writes nothing, and the import, all for owners only. An import speaks for
 * thousands of people at once (it states that each of them consented) and
 * may mail every one of them, so it is an owner's act, as erasure is; an
 * editor acts on one person's request at a time.
 *
 * Each request brings the file again (multipart, one part), with what the
 * importer chose in the query: nothing of a file is kept between requests,
 * so no list of addresses lies on the server waiting for an import that may
 * never come. The file is read as it arrives, on a worker thread
 * (import-reader.ts), and refused at the first line past a limit; only the
 * transaction, which needs the database, runs here. The import runs in one
 * transaction with its audit entry and, with double opt-in, its
 * confirmation mails: it happens whole or not at all.
 */
import multipart from "@fastify/multipart";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  IMPORT_LIMITS,
  IMPORT_ROUTES,
  IMPORT_TEXTS,
  type ImportMapping,
  importMappingSchema,
  importPreviewSchema,
  importReportSchema,
  importResultSchema,
  importRunQuerySchema,
} from "../../../shared/admin/subscriber-import.ts";
import { characterReason } from "../../../shared/field-rules.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { OffThreadFailure } from "../../platform/ops/off-thread.ts";
import { Refusal, refuse } from "../../platform/refusal.ts";
import { signingSecret } from "../../platform/security/signing-secret.ts";
import { judgeRows, reportOf, writeImport } from "./import.ts";
import type { FileRead } from "./import-file.ts";
import { uploadReader } from "./import-reader.ts";
import type { SubscriptionsSettings } from "./server-settings.ts";

const MEGABYTE = 1024 * 1024;

/**
 * One part, the file, and nothing else. A part's headers (its name, the
 * file's name and type) take a few hundred bytes; these bound what the
 * parser keeps of them.
 */
const MULTIPART_LIMITS = {
  fileSize: IMPORT_LIMITS.maxMegabytes * MEGABYTE,
  files: 1,
  fields: 0,
  parts: 1,
  fieldNameSize: 100,
  headerPairs: 10,
  headerSize: 16 * 1024,
};

export interface ImportRoutesOptions extends AdminAreaOptions<SubscriptionsSettings> {
  /** The clock a file's consent dates are judged by (epoch ms). */
  now: () => number;
}

/** The name a file is recorded by: its base name, one line, at most 200 characters. */
function fileNameOf(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // A file's name must not carry control or text-direction characters into the log or the audit.
  const clean = [...base]
    .filter((character) => characterReason("text", character) === null)
    .join("");
  return clean.slice(0, 200) || "list.csv";
}

export default async function importRoutes(
  app: FastifyInstance,
  { config, database, now }: ImportRoutesOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const secret = await signingSecret(db, config.UNSUBSCRIBE_SECRET);
  const owner = { role: "owner" } as const;
  const reader = uploadReader(app.log);
  app.addHook("onClose", () => reader.close());

  // One CSV file per request, refused by its size while it arrives.
  await app.register(multipart, { limits: MULTIPART_LIMITS });

  /**
   * The request's file, read and (for the dry run and the import) judged
   * off this thread as it arrives, or a refusal the importer can act on.
   */
  async function fileOf(
    request: FastifyRequest,
    mapping: ImportMapping,
    { judge, consentDay }: { judge: boolean; consentDay: string | null },
  ): Promise<{ name: string; file: FileRead }> {
    const parts = request.parts();
    const first = await parts.next().catch(unreadableBody);
    if (first.done || first.value.type !== "file") throw refuse.badRequest(IMPORT_TEXTS.noFile);
    const part = first.value;
    const settings = { mapping, judge, consentDay, secret, now: now() };
    const file = await reader.read(part.file, settings).catch((error: unknown) => {
      if (error instanceof app.multipartErrors.RequestFileTooLargeError) {
        throw refuse.tooLarge(IMPORT_TEXTS.tooLarge);
      }
      if (error instanceof Refusal) throw refuse.badRequest(error.message);
      if (error instanceof OffThreadFailure && error.reason !== "error") {
        request.log.warn({ reason: error.message }, "an import's file was stopped");
        throw refuse.badRequest(IMPORT_TEXTS.tooHeavy);
      }
      throw error;
    });
    // Anything after the file would otherwise go unread, unsaid.
    const rest = await parts.next().catch(unreadableBody);
    if (!rest.done) throw refuse.badRequest(IMPORT_TEXTS.oneFile);
    return { name: fileNameOf(part.filename), file };
  }

  /**
   * A body past the limits of one part (a field, a second file) holds more
   * than the file; one that is not multipart, or is cut or written wrong,
   * holds no file the server can read.
   */
  function unreadableBody(error: FastifyError): never {
    const { PartsLimitError, FilesLimitError, FieldsLimitError } = app.multipartErrors;
    for (const limit of [PartsLimitError, FilesLimitError, FieldsLimitError]) {
      if (error instanceof limit) throw refuse.badRequest(IMPORT_TEXTS.oneFile);
    }
    if (error.statusCode !== undefined && error.statusCode < 500) throw error;
    throw refuse.badRequest(IMPORT_TEXTS.noFile);
  }

  routes.post(
    IMPORT_ROUTES.preview,
    {
      schema: {
        querystring: importMappingSchema,
        response: { 200: importPreviewSchema, 400: fieldRefusalSchema },
      },
      config: owner,
    },
    async (request) => {
      const { file } = await fileOf(request, request.query, { judge: false, consentDay: null });
      return file.summary;
    },
  );

  routes.post(
    IMPORT_ROUTES.dryRun,
    {
      schema: {
        querystring: importMappingSchema,
        response: { 200: importReportSchema, 400: fieldRefusalSchema },
      },
      config: owner,
    },
    async (request) => {
      const { file } = await fileOf(request, request.query, { judge: true, consentDay: null });
      return reportOf(await judgeRows(db, file));
    },
  );

  routes.post(
    IMPORT_ROUTES.run,
    {
      schema: {
        querystring: importRunQuerySchema,
        response: { 200: importResultSchema, 400: fieldRefusalSchema },
      },
      config: owner,
    },
    async (request) => {
      const { consentSource, consentDate, emailColumn, dateColumn } = request.query;
      const mapping = {
        ...(emailColumn ? { emailColumn } : {}),
        ...(dateColumn ? { dateColumn } : {}),
      };
      const { name, file } = await fileOf(request, mapping, {
        judge: true,
        consentDay: consentDate,
      });
      const doubleOptIn = request.query.doubleOptIn === "true";
      const { confirmHours } = app.newsletterSignup;
      return app.consoleWrite(request, "subscribers-imported", async (trx, audit) => {
        const judgement = await judgeRows(trx, file);
        const { importId, added } = await writeImport(trx, judgement, {
          fileName: name,
          consentSource,
          consentDate,
          doubleOptIn,
          importedBy: request.user?.id ?? null,
        });
        const confirmations = doubleOptIn
          ? await app.subscriptionMail.confirmations(
              trx,
              added.map((row) => ({ ...row, unsubscribedAt: null })),
              confirmHours,
            )
          : 0;
        const report = reportOf(judgement);
        const joinedMeanwhile = report.added - added.length;
        audit.subject = `subscriber-import:${importId}`;
        audit.detail = {
          file: name,
          format: judgement.format,
          rows: judgement.totalRows,
          added: added.length,
          alreadyOnList: report.alreadyOnList + joinedMeanwhile,
          refused: report.refused,
          doubleOptIn,
          confirmations,
        };
        return {
          ...report,
          added: added.length,
          alreadyOnList: report.alreadyOnList + joinedMeanwhile,
          importId,
          doubleOptIn,
          message: IMPORT_TEXTS.imported(added.length),
        };
      });
    },
  );
}
