/**
 * The console's inquiries inbox. Viewers read and export; editors and owners
 * also handle an inquiry: its status, its assignee and internal notes; only
 * an owner erases what a person sent, on their request. Every change and
 * every export is audited.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { confirmAddressSchema, ERASURE_TEXTS } from "../../../shared/admin/erasure.ts";
import {
  assigneesSchema,
  assignmentSchema,
  INBOX_TEXTS,
  INQUIRY_PATHS,
  inboxCountsSchema,
  inquirerErasureSchema,
  inquiryDetailSchema,
  inquiryFilterSchema,
  inquiryIdSchema,
  inquiryListQuerySchema,
  inquiryPageSchema,
  noteSchema,
  statusChangeSchema,
  unnotifiedSchema,
} from "../../../shared/admin/inquiries.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { sendCsv } from "../../platform/console/csv.ts";
import { type ConsoleUser, findUserById } from "../../platform/console/users.ts";
import { forgetErasedRows } from "../../platform/db/erased-rows.ts";
import { refuse } from "../../platform/refusal.ts";
import {
  addInquiryNote,
  assignablePeople,
  assignInquiry,
  countByStatus,
  countUnseenFailures,
  EXPORT_COLUMNS,
  eraseInquirer,
  exportInquiries,
  filterTypes,
  findInquiry,
  INQUIRER_ERASURE_TABLES,
  listInquiries,
  markFailureSeen,
  setInquiryStatus,
} from "./inbox.ts";

/** The gate (platform/console/gate.ts) has set the person on every route that needs a role. */
function personOf(request: FastifyRequest): ConsoleUser {
  if (!request.user) throw new Error("a console route ran without a signed-in person");
  return request.user;
}

const targetOf = (id: number) => `inquiry:${id}`;

export default async function inquiriesRoutes(
  app: FastifyInstance,
  { database }: AdminAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** The inquiry as it is now, for the answer to every change. */
  async function current(id: number) {
    const inquiry = await findInquiry(db, id);
    if (!inquiry) throw refuse.notFound(INBOX_TEXTS.notFound);
    return inquiry;
  }

  routes.get(
    INQUIRY_PATHS.list,
    {
      schema: { querystring: inquiryListQuerySchema, response: { 200: inquiryPageSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const { page, ...filter } = request.query;
      const [inbox, types] = await Promise.all([
        listInquiries(db, filter, page),
        app.content.inquiryTypes().then((current) => filterTypes(db, current)),
      ]);
      return { ...inbox, types };
    },
  );

  routes.get(
    INQUIRY_PATHS.export,
    {
      schema: { querystring: inquiryFilterSchema, response: { 200: z.string() } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const rows = await exportInquiries(db, request.query);
      await app.auditNoChange(request, "inquiries-exported", undefined, {
        filter: request.query,
        rows: rows.length,
      });
      const day = new Date().toISOString().slice(0, 10);
      return sendCsv(reply, `inquiries-${day}.csv`, rows, [...EXPORT_COLUMNS]);
    },
  );

  routes.get(
    INQUIRY_PATHS.counts,
    { schema: { response: { 200: inboxCountsSchema } }, config: { role: "viewer" } },
    async () => ({ counts: await countByStatus(db, {}) }),
  );

  routes.get(
    INQUIRY_PATHS.assignees,
    { schema: { response: { 200: assigneesSchema } }, config: { role: "viewer" } },
    async () => ({ people: await assignablePeople(db) }),
  );

  routes.get(
    INQUIRY_PATHS.unnotified,
    { schema: { response: { 200: unnotifiedSchema } }, config: { role: "viewer" } },
    async () => ({ unseen: await countUnseenFailures(db) }),
  );

  routes.get(
    INQUIRY_PATHS.one,
    {
      schema: { params: inquiryIdSchema, response: { 200: inquiryDetailSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const inquiry = await current(request.params.id);
      // Someone has now seen that the firm was not told of it: the banner may go.
      if (inquiry.notified === "failed") await markFailureSeen(db, inquiry.id);
      return inquiry;
    },
  );

  routes.put(
    INQUIRY_PATHS.status,
    {
      schema: {
        params: inquiryIdSchema,
        body: statusChangeSchema,
        response: { 200: inquiryDetailSchema },
      },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      const { status } = request.body;
      await app.consoleWrite(request, "inquiry-status-changed", async (trx, audit) => {
        const before = await setInquiryStatus(trx, id, status);
        if (!before) throw refuse.notFound(INBOX_TEXTS.notFound);
        audit.subject = targetOf(id);
        audit.detail = { from: before, to: status };
      });
      return current(id);
    },
  );

  routes.put(
    INQUIRY_PATHS.assignee,
    {
      schema: {
        params: inquiryIdSchema,
        body: assignmentSchema,
        response: { 200: inquiryDetailSchema },
      },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      const { assigneeId } = request.body;
      // Whom it went to is read in the write, so the entry names who was assigned.
      const actionOf = (assignee: ConsoleUser | undefined) =>
        assignee ? "inquiry-assigned" : "inquiry-unassigned";
      await app.consoleWrite(request, actionOf, async (trx, audit) => {
        const outcome = await assignInquiry(trx, id, assigneeId);
        if (outcome === "no-inquiry") throw refuse.notFound(INBOX_TEXTS.notFound);
        if (outcome === "no-person") throw refuse.badRequest(INBOX_TEXTS.unknownPerson);
        const assignee = assigneeId === null ? undefined : await findUserById(trx, assigneeId);
        audit.subject = targetOf(id);
        if (assignee) audit.detail = { assignee: assignee.email };
        return assignee;
      });
      return current(id);
    },
  );

  routes.post(
    INQUIRY_PATHS.notes,
    {
      schema: {
        params: inquiryIdSchema,
        body: noteSchema,
        response: { 201: inquiryDetailSchema },
      },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      const person = personOf(request);
      await app.consoleWrite(request, "inquiry-note-added", async (trx, audit) => {
        const author = { id: person.id, name: person.name || person.email };
        const noteId = await addInquiryNote(trx, id, author, request.body.body);
        if (noteId === undefined) throw refuse.notFound(INBOX_TEXTS.notFound);
        // The note's text stays out of the log: it may say things about the visitor.
        audit.subject = targetOf(id);
        audit.detail = { note: noteId };
      });
      return reply.code(201).send(await current(id));
    },
  );
  routes.delete(
    INQUIRY_PATHS.one,
    {
      schema: {
        params: inquiryIdSchema,
        body: confirmAddressSchema,
        response: { 200: inquirerErasureSchema, 400: fieldRefusalSchema },
      },
      config: { role: "owner" },
    },
    async (request) => {
      const { id } = request.params;
      const inquiry = await current(id);
      // The typed address proves the owner meant this person; checked here
      // too, so no client erases by id alone.
      if (request.body.email !== inquiry.email.toLowerCase()) {
        const mismatch = ERASURE_TEXTS.confirmMismatch;
        throw refuse.badRequest(mismatch, { email: mismatch });
      }
      const erasure = await app.consoleWrite(request, "inquiry-erased", async (trx, audit) => {
        const erasure = await eraseInquirer({ ...database, db: trx }, id);
        if (!erasure) throw refuse.notFound(INBOX_TEXTS.notFound);
        const { inquiries, mailDeleted } = erasure;
        audit.subject = targetOf(id);
        audit.detail = { inquiries, mailDeleted };
        return erasure;
      });
      // Once committed, what lies outside the rows: the inquiries' mail in the
      // mailbox folder (the deleted rows', and notifications answering to the
      // person whose rows no longer say so), and the deleted rows' bytes on disk.
      await app.removeMailboxCopies({ answeringTo: erasure.email, messageIds: erasure.messageIds });
      await forgetErasedRows(database, INQUIRER_ERASURE_TABLES, request.log);
      return { inquiries: erasure.inquiries, mailDeleted: erasure.mailDeleted };
    },
  );
}
