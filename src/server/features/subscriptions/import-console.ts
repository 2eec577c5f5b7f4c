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
 * never come. The import runs in one transaction with its audit entry and,
 * with double opt-in, its confirmation mails: it happens whole or not at all.
 */
import multipart from "@fastify/multipart";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  IMPORT_LIMITS,
  IMPORT_ROUTES,
  IMPORT_TEXTS,
  importMappingSchema,
  importPreviewSchema,
  importReportSchema,
  importResultSchema,
  importRunQuerySchema,
} from "../../../shared/admin/subscriber-import.ts";
import { characterReason } from "../../../shared/field-rules.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { Refusal } from "../../platform/refusal.ts";
import { signingSecret } from "../../platform/security/signing-secret.ts";
import { type CsvFile, judgeRows, readCsv, reportOf, writeImport } from "./import.ts";
import { layoutOf } from "./import-formats.ts";

const MEGABYTE = 1024 * 1024;

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
  { config, database }: AdminAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const secret = await signingSecret(db, config.UNSUBSCRIBE_SECRET);
  const owner = { role: "owner" } as const;

  // One CSV file per request, refused by its size while it arrives.
  await app.register(multipart, {
    limits: {
      fileSize: IMPORT_LIMITS.maxMegabytes * MEGABYTE,
      files: 1,
      fields: 0,
      parts: 1,
    },
  });

  /** The request's file as read, or a refusal the importer can act on. */
  async function fileOf(request: FastifyRequest): Promise<{ name: string; csv: CsvFile }> {
    const part = await request.file().catch((error: FastifyError) => {
      if (error.statusCode !== undefined && error.statusCode < 500) throw error;
      throw app.httpErrors.badRequest(IMPORT_TEXTS.noFile);
    });
    if (!part) throw app.httpErrors.badRequest(IMPORT_TEXTS.noFile);
    const bytes = await part.toBuffer().catch((error: unknown) => {
      throw error instanceof app.multipartErrors.RequestFileTooLargeError
        ? app.httpErrors.payloadTooLarge(IMPORT_TEXTS.tooLarge)
        : error;
    });
    return { name: fileNameOf(part.filename), csv: refusedAs400(() => readCsv(bytes)) };
  }

  /** A Refusal (the file or the mapping) answered as the importer's to fix. */
  function refusedAs400<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof Refusal) throw app.httpErrors.badRequest(error.message);
      throw error;
    }
  }
  async function refusedAs400Async<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Refusal) throw app.httpErrors.badRequest(error.message);
      throw error;
    }
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
      const { csv } = await fileOf(request);
      const layout = refusedAs400(() => layoutOf(csv.header, request.query));
      return {
        format: layout.format,
        columns: csv.header,
        emailColumn: layout.emailColumn,
        dateColumn: layout.dateColumn,
        rows: csv.rows.slice(0, IMPORT_LIMITS.previewRows),
        totalRows: csv.rows.length,
      };
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
      const { csv } = await fileOf(request);
      const judgement = await refusedAs400Async(() =>
        judgeRows(db, csv, request.query, { secret, consentDay: null }),
      );
      return reportOf(judgement);
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
      const { name, csv } = await fileOf(request);
      const { consentSource, consentDate, emailColumn, dateColumn } = request.query;
      const doubleOptIn = request.query.doubleOptIn === "true";
      const mapping = {
        ...(emailColumn ? { emailColumn } : {}),
        ...(dateColumn ? { dateColumn } : {}),
      };
      const { confirmHours } = app.newsletterSignup;
      const outcome = await refusedAs400Async(() =>
        app.withOutbox(async (trx) => {
          const judgement = await judgeRows(trx, csv, mapping, { secret, consentDay: consentDate });
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
          await app.audit(trx, request, "subscribers-imported", `subscriber-import:${importId}`, {
            file: name,
            format: judgement.format,
            rows: judgement.totalRows,
            added: added.length,
            alreadyOnList: report.alreadyOnList + joinedMeanwhile,
            refused: report.refused,
            doubleOptIn,
            confirmations,
          });
          return {
            ...report,
            added: added.length,
            alreadyOnList: report.alreadyOnList + joinedMeanwhile,
            importId,
            doubleOptIn,
            message: IMPORT_TEXTS.imported(added.length),
          };
        }),
      );
      return outcome;
    },
  );
}
