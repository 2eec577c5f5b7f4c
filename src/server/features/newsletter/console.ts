/**
 * The console's newsletter: viewers read the issues and follow a send;
 * editors write drafts, preview and test them, send or schedule them, and
 * pause, resume or cancel a send. Every write is audited.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Transaction } from "kysely";
import { z } from "zod";
import type { AuditAction } from "../../../shared/admin/audit-log.ts";
import {
  type CampaignDetail,
  campaignDetailSchema,
  campaignDraftSchema,
  campaignIdSchema,
  campaignListSchema,
  campaignSendSchema,
  campaignUpdateSchema,
  NEWSLETTER_PATHS,
  NEWSLETTER_TEXTS,
} from "../../../shared/admin/newsletter.ts";
import { UNSUBSCRIBE_PATH } from "../../../shared/routes.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { authorOf } from "../../platform/console/author.ts";
import type { Database } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { newMessageId } from "../../platform/outbox/message.ts";
import { enqueueMail } from "../../platform/outbox/queue.ts";
import { cancelSend, pauseSend, resumeSend } from "./campaign-sends.ts";
import {
  type CampaignRecord,
  type CampaignRefusal,
  campaignProgress,
  createCampaign,
  deleteDraft,
  findCampaign,
  listCampaigns,
  scheduleSend,
  unschedule,
  updateDraft,
} from "./campaigns.ts";
import { listId } from "./composer.ts";
import { personalise, renderIssue } from "./render.ts";

const refusals = { 400: fieldRefusalSchema, 404: messageSchema, 409: fieldRefusalSchema };

const targetOf = (id: number) => `campaign:${id}`;

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
const withoutScripts = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");

const REFUSALS: Record<
  Exclude<CampaignRefusal, "wrong-state">,
  { status: number; message: string }
> = {
  missing: { status: 404, message: NEWSLETTER_TEXTS.notFound },
  "slug-taken": { status: 409, message: NEWSLETTER_TEXTS.slugTaken },
  stale: { status: 409, message: NEWSLETTER_TEXTS.stale },
};

export default async function newsletterRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions,
) {
  const { db, engine } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const origin = config.PUBLIC_ORIGIN;

  async function campaignOr404(id: number): Promise<CampaignRecord> {
    const campaign = await findCampaign(db, id);
    if (!campaign) throw app.httpErrors.notFound(NEWSLETTER_TEXTS.notFound);
    return campaign;
  }

  async function detail(id: number): Promise<CampaignDetail> {
    const campaign = await campaignOr404(id);
    const { queuedAllAt: _queuedAllAt, rate: _rate, ...shown } = campaign;
    return { ...shown, progress: await campaignProgress(db, campaign) };
  }

  /** Answers a refused write; `wrongState` says what the state does not allow. */
  function refuse(reply: FastifyReply, refusal: CampaignRefusal, wrongState: string) {
    const { status, message } =
      refusal === "wrong-state" ? { status: 409, message: wrongState } : REFUSALS[refusal];
    const fields = refusal === "slug-taken" ? { slug: message } : undefined;
    return reply.code(status).send({ message, ...(fields ? { fields } : {}) });
  }

  const byId = { params: campaignIdSchema };
  const answer = { 200: campaignDetailSchema, ...refusals };

  routes.get(
    NEWSLETTER_PATHS.list,
    { schema: { response: { 200: campaignListSchema } }, config: { role: "viewer" } },
    async () => ({ items: await listCampaigns(db) }),
  );

  routes.post(
    NEWSLETTER_PATHS.list,
    {
      schema: { body: campaignDraftSchema, response: { 201: campaignDetailSchema, ...refusals } },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const id = await inTransaction(db, async (trx) => {
        const id = await createCampaign(trx, request.body, authorOf(request));
        if (id !== "slug-taken") {
          await app.audit(trx, request, "campaign-created", targetOf(id), {
            slug: request.body.slug,
          });
        }
        return id;
      });
      if (id === "slug-taken") return refuse(reply, id, "");
      return reply.code(201).send(await detail(id));
    },
  );

  routes.get(
    NEWSLETTER_PATHS.one(":id"),
    { schema: { ...byId, response: answer }, config: { role: "viewer" } },
    (request) => detail(request.params.id),
  );

  routes.put(
    NEWSLETTER_PATHS.one(":id"),
    {
      schema: { ...byId, body: campaignUpdateSchema, response: answer },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      const refusal = await inTransaction(db, async (trx) => {
        const refusal = await updateDraft(trx, id, request.body);
        if (!refusal) await app.audit(trx, request, "campaign-edited", targetOf(id));
        return refusal;
      });
      if (refusal) return refuse(reply, refusal, NEWSLETTER_TEXTS.notEditable);
      return detail(id);
    },
  );

  routes.delete(
    NEWSLETTER_PATHS.one(":id"),
    { schema: { ...byId, response: { 204: z.null(), ...refusals } }, config: { role: "editor" } },
    async (request, reply) => {
      const { id } = request.params;
      const refusal = await inTransaction(db, async (trx) => {
        const refusal = await deleteDraft(trx, id);
        if (!refusal) await app.audit(trx, request, "campaign-deleted", targetOf(id));
        return refusal;
      });
      if (refusal) return refuse(reply, refusal, NEWSLETTER_TEXTS.notEditable);
      return reply.code(204).send(null);
    },
  );

  // ---- Previews and the test ----

  /** The issue as it stands, rendered as it would be sent now. */
  async function rendered(id: number) {
    const campaign = await campaignOr404(id);
    return { campaign, issue: renderIssue(campaign, { origin }) };
  }

  /** A test copy's unsubscribe link leads to the page, with no subscription to end. */
  const sampleUnsubscribeUrl = new URL(UNSUBSCRIBE_PATH, origin).href;

  routes.get(
    NEWSLETTER_PATHS.emailPreview(":id"),
    {
      schema: { ...byId, response: { 200: z.string(), 404: messageSchema } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const { issue } = await rendered(request.params.id);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-security-policy", EMAIL_PREVIEW_POLICY)
        .send(personalise(issue, sampleUnsubscribeUrl).html);
    },
  );

  routes.get(
    NEWSLETTER_PATHS.textPreview(":id"),
    {
      schema: { ...byId, response: { 200: z.string(), 404: messageSchema } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const { issue } = await rendered(request.params.id);
      return reply
        .type("text/plain; charset=utf-8")
        .header("cache-control", "no-store")
        .send(personalise(issue, sampleUnsubscribeUrl).text);
    },
  );

  routes.get(
    NEWSLETTER_PATHS.webPreview(":id"),
    {
      schema: { ...byId, response: { 200: z.string(), 404: messageSchema } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const { campaign, issue } = await rendered(request.params.id);
      const page = await app.insightPreview({
        slug: campaign.slug,
        title: campaign.title,
        summary: campaign.summary,
        publishedAt: campaign.startedAt ?? new Date().toISOString(),
        html: issue.webHtml,
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
      schema: { ...byId, response: { 200: messageSchema, 404: messageSchema } },
      config: { role: "editor" },
    },
    async (request) => {
      const { campaign, issue } = await rendered(request.params.id);
      const to = authorOf(request).recordedAs;
      const { html, text } = personalise(issue, sampleUnsubscribeUrl);
      await app.withOutbox(async (trx) => {
        await enqueueMail(trx, "newsletter-test", {
          messageId: newMessageId(config.MAIL_FROM),
          from: config.MAIL_FROM,
          to,
          subject: `[Test] ${campaign.title}`,
          html,
          text,
          headers: { "List-Id": listId(origin) },
        });
        await app.audit(trx, request, "campaign-test-sent", targetOf(campaign.id), { to });
      });
      return { message: NEWSLETTER_TEXTS.testSent(to) };
    },
  );

  // ---- The send ----

  routes.post(
    NEWSLETTER_PATHS.send(":id"),
    { schema: { ...byId, body: campaignSendSchema, response: answer }, config: { role: "editor" } },
    async (request, reply) => {
      const { id } = request.params;
      const at = request.body.at ? new Date(request.body.at) : new Date();
      if (request.body.at && at.getTime() <= Date.now()) {
        return reply.code(400).send({
          message: NEWSLETTER_TEXTS.inThePast,
          fields: { at: NEWSLETTER_TEXTS.inThePast },
        });
      }
      const { issue } = await rendered(id);
      const refusal = await inTransaction(db, async (trx) => {
        const refusal = await scheduleSend(trx, id, {
          at,
          rate: config.NEWSLETTER_RATE_PER_SECOND,
          rendered: issue,
        });
        if (!refusal) {
          const action = request.body.at ? "campaign-scheduled" : "campaign-sent";
          await app.audit(trx, request, action, targetOf(id), { at: at.toISOString() });
        }
        return refusal;
      });
      if (refusal) return refuse(reply, refusal, NEWSLETTER_TEXTS.notDraft);
      app.newsletter.wake();
      return detail(id);
    },
  );

  routes.post(
    NEWSLETTER_PATHS.unschedule(":id"),
    { schema: { ...byId, response: answer }, config: { role: "editor" } },
    async (request, reply) => {
      const { id } = request.params;
      const refusal = await inTransaction(db, async (trx) => {
        const refusal = await unschedule(trx, id);
        if (!refusal) await app.audit(trx, request, "campaign-unscheduled", targetOf(id));
        return refusal;
      });
      if (refusal) return refuse(reply, refusal, NEWSLETTER_TEXTS.notScheduled);
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
      async (request, reply) => {
        const { id } = request.params;
        await campaignOr404(id);
        const changed = await inTransaction(db, async (trx) => {
          const changed = await change(trx, id);
          if (changed) await app.audit(trx, request, action, targetOf(id));
          return changed;
        });
        if (!changed) return refuse(reply, "wrong-state", wrongState);
        await after?.();
        return detail(id);
      },
    );
  }

  stateChange(
    NEWSLETTER_PATHS.pause(":id"),
    "campaign-paused",
    (trx, id) => pauseSend(trx, id),
    NEWSLETTER_TEXTS.notRunning,
  );
  stateChange(
    NEWSLETTER_PATHS.resume(":id"),
    "campaign-resumed",
    (trx, id) => resumeSend(trx, engine, id),
    NEWSLETTER_TEXTS.notPaused,
    () => app.newsletter.wake(),
  );
  stateChange(
    NEWSLETTER_PATHS.cancel(":id"),
    "campaign-cancelled",
    (trx, id) => cancelSend(trx, id),
    NEWSLETTER_TEXTS.notRunning,
    () => app.newsletter.archiveChanged(),
  );
}
