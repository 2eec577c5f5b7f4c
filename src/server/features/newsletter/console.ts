/**
 * The console's newsletter: viewers read the issues and follow a send;
 * editors write drafts, preview and test them, send or schedule them, and
 * pause, resume or cancel a send. Every write is audited.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Transaction } from "kysely";
import { z } from "zod";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
import {
  type IssueDetail,
  issueDetailSchema,
  issueDraftSchema,
  issueFiguresSchema,
  issueIdSchema,
  issueListSchema,
  issueSendSchema,
  issueUpdateSchema,
  NEWSLETTER_PATHS,
  NEWSLETTER_TEXTS,
  PREVIEW_READERS,
  previewQuerySchema,
  previewReaderListSchema,
  recipientCountSchema,
  recipientsQuerySchema,
  segmentLabel,
  testSendSchema,
} from "../../../shared/admin/newsletter.ts";
import { elementsNamed, replaceSpans } from "../../../shared/html-elements.ts";
import { fillMergeFields, type MergeValues } from "../../../shared/merge-fields.ts";
import { UNSUBSCRIBE_PATH } from "../../../shared/routes.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import { normalizeEmail } from "../../../shared/subscription.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { authorOf } from "../../platform/console/author.ts";
import type { Database } from "../../platform/db/schema.ts";
import { newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMails } from "../../platform/outbox/queue.ts";
import { type RequestRefusal, refuse } from "../../platform/refusal.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import {
  countRecipients,
  findSubscription,
  listId,
  listTopics,
  namedReaders,
  namesByAddress,
} from "../subscriptions/index.ts";
import { issueFigures } from "./issue-figures.ts";
import { emailPicturesOf } from "./issue-pictures.ts";
import { cancelSend, pauseSend, resumeSend } from "./issue-sends.ts";
import {
  createIssue,
  deleteDraft,
  findIssue,
  type IssueRecord,
  type IssueRefusal,
  issueProgress,
  listIssues,
  scheduleSend,
  unschedule,
  updateDraft,
} from "./issues.ts";
import { requireDescribedPictures } from "./picture-descriptions.ts";
import { personalise, renderIssue } from "./render.ts";
import type { NewsletterSettings } from "./server-settings.ts";

const refusals = { 400: fieldRefusalSchema, 404: messageSchema, 409: fieldRefusalSchema };

const targetOf = (id: number) => `issue:${id}`;

/** Saves of one draft by one person within this long are one edit in the audit log. */
const EDITS_COALESCE = { withinMs: 15 * 60 * 1000 };

/**
 * The previews are whole documents shown in the console's frames: framable by
 * the console alone, and sandboxed, so nothing in them runs script. The
 * e-mail's styles are inline, as in a mail program.
 */
const EMAIL_PREVIEW_POLICY =
  "default-src 'none'; img-src 'self' https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox allow-same-origin allow-popups";
const framableBySelf = (policy: string) =>
  `${policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'")};sandbox allow-same-origin allow-popups`;

/**
 * The page without its scripts: in the sandbox they could not run (each would
 * log a refusal), and at the preview's address the router would not find the
 * page it hydrates. Our own renderer's output, whose script elements hold no
 * "</script" (React Router escapes it), so the pattern cannot cut one short.
 */
const withoutScripts = (html: string) =>
  replaceSpans(html, elementsNamed(html, "script"), () => "");

const REFUSALS: Record<Exclude<IssueRefusal, "wrong-state">, () => RequestRefusal> = {
  missing: () => refuse.notFound(NEWSLETTER_TEXTS.notFound),
  "slug-taken": () =>
    refuse.conflict(NEWSLETTER_TEXTS.slugTaken, { slug: NEWSLETTER_TEXTS.slugTaken }),
  stale: () => refuse.conflict(NEWSLETTER_TEXTS.stale),
};

/** A refused write of an issue; `wrongState` says what the state does not allow. */
const refusalOf = (refusal: IssueRefusal, wrongState: string) =>
  refusal === "wrong-state" ? refuse.conflict(wrongState) : REFUSALS[refusal]();

/**
 * A test reaches addresses the editor types, not only their own: a tighter
 * limit than the console's other writes, so a session cannot become a way
 * to mail strangers (five copies a request at most, ten requests a minute).
 */
const TEST_SEND_LIMIT = { max: 10, timeWindow: "1 minute" };

export default async function newsletterRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions<NewsletterSettings & MailDefaultSettings>,
) {
  const { db, engine } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const origin = config.PUBLIC_ORIGIN;

  async function issueOr404(id: number): Promise<IssueRecord> {
    const issue = await findIssue(db, id);
    if (!issue) throw refuse.notFound(NEWSLETTER_TEXTS.notFound);
    return issue;
  }

  async function detail(id: number): Promise<IssueDetail> {
    const issue = await issueOr404(id);
    const { queuedAllAt: _queuedAllAt, rate: _rate, ...shown } = issue;
    return { ...shown, progress: await issueProgress(db, issue) };
  }

  const byId = { params: issueIdSchema };
  const answer = { 200: issueDetailSchema, ...refusals };

  routes.get(
    NEWSLETTER_PATHS.list,
    { schema: { response: { 200: issueListSchema } }, config: { role: "viewer" } },
    async () => ({ items: await listIssues(db) }),
  );

  routes.post(
    NEWSLETTER_PATHS.list,
    {
      schema: { body: issueDraftSchema, response: { 201: issueDetailSchema, ...refusals } },
      config: { role: "editor" },
    },
    async (request, reply) => {
      requireDescribedPictures(request.body.body);
      const id = await app.consoleWrite(request, "issue-created", async (trx, audit) => {
        const id = await createIssue(trx, request.body, authorOf(request));
        if (id === "slug-taken") throw refusalOf(id, "");
        audit.subject = targetOf(id);
        audit.detail = { slug: request.body.slug };
        return id;
      });
      return reply.code(201).send(await detail(id));
    },
  );

  routes.get(
    NEWSLETTER_PATHS.one(":id"),
    { schema: { ...byId, response: answer }, config: { role: "viewer" } },
    (request) => detail(request.params.id),
  );

  routes.get(
    NEWSLETTER_PATHS.figures(":id"),
    {
      schema: { ...byId, response: { 200: issueFiguresSchema, 404: messageSchema } },
      config: { role: "viewer" },
    },
    async (request) => issueFigures(db, await issueOr404(request.params.id)),
  );

  routes.get(
    NEWSLETTER_PATHS.recipients,
    {
      schema: {
        querystring: recipientsQuerySchema,
        response: { 200: recipientCountSchema, 400: fieldRefusalSchema },
      },
      config: { role: "viewer" },
    },
    async (request) => ({ count: await countRecipients(db, request.query) }),
  );

  routes.put(
    NEWSLETTER_PATHS.one(":id"),
    {
      schema: { ...byId, body: issueUpdateSchema, response: answer },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      requireDescribedPictures(request.body.body);
      await app.consoleWrite(request, "issue-edited", async (trx, audit) => {
        const refusal = await updateDraft(trx, id, request.body);
        if (refusal) throw refusalOf(refusal, NEWSLETTER_TEXTS.notEditable);
        audit.subject = targetOf(id);
        // A draft is saved as it is typed: one entry stands for a sitting's saves.
        audit.coalesce = EDITS_COALESCE;
      });
      return detail(id);
    },
  );

  routes.delete(
    NEWSLETTER_PATHS.one(":id"),
    { schema: { ...byId, response: { 204: z.null(), ...refusals } }, config: { role: "editor" } },
    async (request, reply) => {
      const { id } = request.params;
      await app.consoleWrite(request, "issue-deleted", async (trx, audit) => {
        const refusal = await deleteDraft(trx, id);
        if (refusal) throw refusalOf(refusal, NEWSLETTER_TEXTS.notEditable);
        audit.subject = targetOf(id);
      });
      return reply.code(204).send(null);
    },
  );

  // ---- Previews and the test ----

  /**
   * The issue as it stands, rendered as it would be sent now, its pictures
   * as mail programs get them; its links through the click-counting
   * redirect only for the copies `sent` (a preview's and a test's clicks
   * are the firm's own).
   */
  async function rendered(id: number, sent = false) {
    const issue = await issueOr404(id);
    const pictures = await emailPicturesOf(issue, { origin, mediaDir: config.MEDIA_DIR });
    const tagLinks = config.INSIGHT_LINK_TAGS;
    const countClicks = sent && config.INSIGHT_CLICK_COUNTS;
    return { issue, rendering: renderIssue(issue, { origin, pictures, tagLinks, countClicks }) };
  }

  /** A test copy's unsubscribe link leads to the page, with no subscription to end. */
  const sampleUnsubscribeUrl = new URL(UNSUBSCRIBE_PATH, origin).href;

  /** The merge fields' values of the subscriber a preview is read as; none (the fallbacks) without one. */
  async function valuesOf(readerId: number | undefined): Promise<MergeValues> {
    if (readerId === undefined) return {};
    const reader = await findSubscription(db, readerId);
    if (!reader) throw refuse.notFound(NEWSLETTER_TEXTS.readerNotFound);
    return reader;
  }

  const preview = {
    ...byId,
    querystring: previewQuerySchema,
    response: { 200: z.string(), 400: fieldRefusalSchema, 404: messageSchema },
  };

  routes.get(
    NEWSLETTER_PATHS.previewReaders,
    { schema: { response: { 200: previewReaderListSchema } }, config: { role: "viewer" } },
    async () => ({ items: await namedReaders(db, PREVIEW_READERS) }),
  );

  routes.get(
    NEWSLETTER_PATHS.emailPreview(":id"),
    { schema: preview, config: { role: "viewer" } },
    async (request, reply) => {
      const { rendering } = await rendered(request.params.id);
      const values = await valuesOf(request.query.as);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-security-policy", EMAIL_PREVIEW_POLICY)
        .send(personalise(rendering, sampleUnsubscribeUrl, values).html);
    },
  );

  routes.get(
    NEWSLETTER_PATHS.textPreview(":id"),
    { schema: preview, config: { role: "viewer" } },
    async (request, reply) => {
      const { rendering } = await rendered(request.params.id);
      const values = await valuesOf(request.query.as);
      return reply
        .type("text/plain; charset=utf-8")
        .header("cache-control", "no-store")
        .send(personalise(rendering, sampleUnsubscribeUrl, values).text);
    },
  );

  routes.get(
    NEWSLETTER_PATHS.webPreview(":id"),
    {
      schema: { ...byId, response: { 200: z.string(), 404: messageSchema } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const { issue, rendering } = await rendered(request.params.id);
      const page = await app.insightPreview({
        slug: issue.slug,
        // As the archive shows it: no reader, so each merge field's fallback.
        title: fillMergeFields(issue.title),
        summary: fillMergeFields(issue.summary),
        publishedAt: issue.startedAt ?? new Date().toISOString(),
        html: rendering.webHtml,
      });
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-security-policy", framableBySelf(page.csp))
        .send(withoutScripts(page.html));
    },
  );

  routes.post(
    NEWSLETTER_PATHS.testSend(":id"),
    {
      schema: {
        ...byId,
        body: testSendSchema,
        response: { 200: messageSchema, 400: fieldRefusalSchema, 404: messageSchema },
      },
      config: { role: "editor", rateLimit: TEST_SEND_LIMIT },
    },
    async (request) => {
      const { issue, rendering } = await rendered(request.params.id);
      const { to } = request.body;
      // An address on the list reads its own name; any other, the fallbacks.
      const names = await namesByAddress(db, to);
      // Every copy and the audit entry are committed together, or none is.
      await app.consoleWrite(request, "issue-test-sent", async (trx, audit) => {
        const { from } = await currentMailSettings(trx, config);
        await enqueueMails(
          trx,
          "newsletter-test",
          to.map((address) => {
            const values = names.get(normalizeEmail(address)) ?? {};
            return {
              messageId: newMessageId(from),
              from,
              to: address,
              subject: `[Test] ${fillMergeFields(issue.title, values)}`,
              ...personalise(rendering, sampleUnsubscribeUrl, values),
              headers: { "List-Id": listId(origin) },
            };
          }),
        );
        // An address holds neither comma nor space, so the list reads back unambiguously.
        audit.subject = targetOf(issue.id);
        audit.detail = { to: to.join(", ") };
      });
      return { message: NEWSLETTER_TEXTS.testSent(to) };
    },
  );

  // ---- The send ----

  routes.post(
    NEWSLETTER_PATHS.send(":id"),
    { schema: { ...byId, body: issueSendSchema, response: answer }, config: { role: "editor" } },
    async (request) => {
      const { id } = request.params;
      const at = request.body.at ? new Date(request.body.at) : new Date();
      if (request.body.at && at.getTime() <= Date.now()) {
        throw refuse.badRequest(NEWSLETTER_TEXTS.inThePast, { at: NEWSLETTER_TEXTS.inThePast });
      }
      const { issue, rendering } = await rendered(id, true);
      // A draft saved before descriptions were required is not sent with a hole in it.
      requireDescribedPictures(issue.body);
      const action = request.body.at ? "issue-scheduled" : "issue-sent";
      await app.consoleWrite(request, action, async (trx, audit) => {
        // The rate in force now stays the send's own (ADR 042).
        const { newsletterRate } = await currentMailSettings(trx, config);
        const segment = request.body.segment ?? null;
        const refusal = await scheduleSend(trx, id, {
          at,
          rate: newsletterRate,
          segment,
          rendered: rendering,
        });
        if (refusal) throw refusalOf(refusal, NEWSLETTER_TEXTS.notDraft);
        audit.subject = targetOf(id);
        const topicNames = new Map((await listTopics(trx)).map((t) => [t.id, t.name]));
        audit.detail = { at: at.toISOString(), to: segmentLabel(segment, topicNames) };
      });
      app.newsletter.wake();
      return detail(id);
    },
  );

  routes.post(
    NEWSLETTER_PATHS.unschedule(":id"),
    { schema: { ...byId, response: answer }, config: { role: "editor" } },
    async (request) => {
      const { id } = request.params;
      await app.consoleWrite(request, "issue-unscheduled", async (trx, audit) => {
        const refusal = await unschedule(trx, id);
        if (refusal) throw refusalOf(refusal, NEWSLETTER_TEXTS.notScheduled);
        audit.subject = targetOf(id);
      });
      return detail(id);
    },
  );

  /** Pause, resume and cancel: a state change that either happens or is refused with `wrongState`. */
  function stateChange(
    path: string,
    action: AuditAction,
    change: (trx: Transaction<Database>, id: number) => Promise<boolean>,
    wrongState: string,
    after?: () => Promise<void> | void,
  ) {
    routes.post(
      path,
      { schema: { ...byId, response: answer }, config: { role: "editor" } },
      async (request) => {
        const { id } = request.params;
        await issueOr404(id);
        await app.consoleWrite(request, action, async (trx, audit) => {
          if (!(await change(trx, id))) throw refusalOf("wrong-state", wrongState);
          audit.subject = targetOf(id);
        });
        await after?.();
        return detail(id);
      },
    );
  }

  stateChange(
    NEWSLETTER_PATHS.pause(":id"),
    "issue-paused",
    (trx, id) => pauseSend(trx, id),
    NEWSLETTER_TEXTS.notRunning,
  );
  stateChange(
    NEWSLETTER_PATHS.resume(":id"),
    "issue-resumed",
    (trx, id) => resumeSend(trx, engine, id),
    NEWSLETTER_TEXTS.notPaused,
    () => app.newsletter.wake(),
  );
  stateChange(
    NEWSLETTER_PATHS.cancel(":id"),
    "issue-cancelled",
    (trx, id) => cancelSend(trx, id),
    NEWSLETTER_TEXTS.notRunning,
    () => app.newsletter.archiveChanged(),
  );
}
