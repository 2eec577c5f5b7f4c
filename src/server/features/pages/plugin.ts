/**
 * The site's pages, rendered at run time and served from memory (ADR 010).
 * Each page is sent with its ETag (304 when the browser has it), in the
 * encoding the browser prefers, and with a Content-Security-Policy that
 * allows exactly its inline scripts. Each case study and each published
 * Insight issue is a page of its own; any other path outside /api/ shows
 * Home with status 404 (ADR 002). The forms' pages also answer the forms
 * posted without JavaScript, rendered for each post and never cached
 * (features/pages/form-posts.ts). The console previews an issue's page through
 * app.insightPreview, with the same renderer and policy; a page asked for
 * with a draft's preview link, by a signed-in person, is rendered with the
 * draft in it and never cached (app.draftPreview, ADR 044).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_ROOT } from "../../../shared/api-paths.ts";
import type { DefendedForm } from "../../../shared/bot-defence.ts";
import type { InsightIssue } from "../../../shared/insight.ts";
import type { ContentReader, PageContext } from "../../../shared/page-context.ts";
import {
  CASE_STUDY_ROUTE,
  CONFIRM_SUBSCRIPTION_PATH,
  caseStudyPath,
  INSIGHT_ISSUE_ROUTE,
  insightIssuePath,
  NOT_FOUND_PATH,
  PAGE_PATHS,
  ROUTES,
  SUBSCRIBE_PATH,
  UNKNOWN_CASE_STUDY_PATH,
  UNKNOWN_INSIGHT_ISSUE_PATH,
} from "../../../shared/routes.ts";
import { sendEncoded } from "../../platform/http/encoded-body.ts";
import { readerWith } from "../content/index.ts";
import formPosts from "./form-posts.ts";
import { pageFormService } from "./form-service.ts";
import { formToken } from "./form-token.ts";
import { type CachedPage, PageCache, policyForPage } from "./page-cache.ts";
import type { PageRenderer } from "./renderer.ts";

export const HTML_CACHE_CONTROL = "no-cache";
/** A draft's preview is for the person who asked for it: kept by no cache, shared or not. */
export const PREVIEW_CACHE_CONTROL = "private, no-store";

declare module "fastify" {
  interface FastifyInstance {
    /** The rendered pages; clear() when the content they show changes. */
    pages: PageCache | null;
    /**
     * The web page an Insight issue will become, for the console's preview:
     * `issue` (a draft, e.g. `{ ...draft, html: renderedMarkdown, publishedAt:
     * new Date().toISOString() }`) rendered at /insight/<issue.slug> by the
     * public pages' own renderer, with the site's header and footer, and the
     * Content-Security-Policy that page would be served with. Nothing is read
     * from the archive for it, and nothing is cached or published. The policy
     * says `frame-ancestors 'none'`, as every page's does: a console that
     * shows the page in a frame of its own origin must loosen that directive.
     * Throws a 503 error where the server has no page build (API only).
     */
    insightPreview(issue: InsightIssue): Promise<{ html: string; csp: string }>;
  }
}

/** The pages whose forms post to them without JavaScript (their routes have an action), and their forms. */
export const FORM_PATHS: Readonly<Record<string, DefendedForm>> = {
  [ROUTES.contactUs]: "inquiry",
  [SUBSCRIBE_PATH]: "subscription",
};

export interface PagesOptions {
  renderer: PageRenderer | null;
  /** PUBLIC_ORIGIN: pages are rendered as if requested there. */
  origin: string;
  /** The server's signing secret: the forms' hidden token is signed with it (ADR 004). */
  secret: string;
}

export default fp(
  async function pages(app: FastifyInstance, { renderer, origin, secret }: PagesOptions) {
    const token = formToken(secret);
    const context: PageContext = {
      content: app.content,
      origin,
      captcha: app.botDefence.widget,
      forms: pageFormService(token),
    };
    const cache = renderer ? new PageCache(renderer, context, app.pagePolicy) : null;
    app.decorate("pages", cache);
    app.content.onChange(() => cache?.clear());

    async function send(
      request: FastifyRequest,
      reply: FastifyReply,
      path: string,
      status?: number,
    ) {
      if (!cache) throw app.httpErrors.notFound("Not found");
      return sendPage(request, reply, await cache.get(path), status);
    }

    /**
     * A draft's preview (ADR 044): the page at `path` rendered with the
     * draft in the content, for this request only. It is never cached, here
     * or by the browser, and never indexed: only the signed-in person who
     * asked for the link sees it (app.draftPreview decides).
     */
    async function sendPreview(
      reply: FastifyReply,
      path: string,
      content: ContentReader,
      status?: number,
    ) {
      if (!renderer) throw app.httpErrors.notFound("Not found");
      const page = await renderer(path, { ...context, content });
      return reply
        .code(status ?? page.status)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", PREVIEW_CACHE_CONTROL)
        .header("x-robots-tag", "noindex")
        .header("content-security-policy", policyForPage(page.html, app.pagePolicy))
        .send(page.html);
    }

    function sendPage(
      request: FastifyRequest,
      reply: FastifyReply,
      page: CachedPage,
      status?: number,
    ) {
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", HTML_CACHE_CONTROL)
        .header("content-security-policy", page.csp);
      return sendEncoded(request, reply, page, status ?? page.status);
    }

    /**
     * A page for each slug the content has (a case study, an issue); any other
     * slug is an unknown path, rendered once at `unknownPath` by the same route
     * so that it hydrates (shared/routes.ts). A slug the content had and took
     * back for good (`gone`: a withdrawn issue) shows the same page with 410,
     * so search engines drop the address rather than try it again.
     */
    function slugPages(
      route: string,
      pathOf: (slug: string) => string,
      unknownPath: string,
      known: (slug: string, content: ContentReader) => Promise<boolean>,
      gone: (slug: string) => Promise<boolean> = async () => false,
    ) {
      app.get<{ Params: { slug: string } }>(route, { compress: false }, async (request, reply) => {
        const { slug } = request.params;
        const preview = await app.draftPreview(request);
        if (preview) {
          if (await known(slug, preview)) return sendPreview(reply, pathOf(slug), preview);
          return sendPreview(reply, unknownPath, preview, 404);
        }
        if (await known(slug, app.content)) return send(request, reply, pathOf(slug));
        return send(request, reply, unknownPath, (await gone(slug)) ? 410 : 404);
      });
    }

    app.decorate("insightPreview", async (issue: InsightIssue) => {
      if (!renderer) {
        throw app.httpErrors.serviceUnavailable(
          "This server has no page build, so it cannot show the web page (npm run build makes it).",
        );
      }
      const { html } = await renderer(insightIssuePath(issue.slug), {
        ...context,
        content: withDraft(app.content, issue),
      });
      return { html, csp: policyForPage(html, app.pagePolicy) };
    });

    /**
     * A confirmation link's page offers its button only while the link can
     * confirm: a forged, missing or expired link opens on the refusal the
     * button would bring, with its status (404, 410). Both refusals are the
     * same for every link, so each is rendered once, as its post's outcome.
     */
    async function sendConfirmationPage(request: FastifyRequest, reply: FastifyReply) {
      const { token } = request.query as { token?: unknown };
      const state = await app.confirmationLinkState(typeof token === "string" ? token : "");
      const submit = renderer?.submit;
      if (!cache || !submit || (state !== "invalid" && state !== "expired")) {
        return send(request, reply, CONFIRM_SUBSCRIPTION_PATH);
      }
      const outcome = new URLSearchParams({ state }).toString();
      const page = await cache.getRendered(`${CONFIRM_SUBSCRIPTION_PATH}?${outcome}`, () =>
        // The page's action shows the outcome it is given unless the post was refused;
        // the form service's writes still refuse, as nothing was posted.
        submit(
          { path: CONFIRM_SUBSCRIPTION_PATH, body: outcome },
          { ...context, forms: context.forms && { ...context.forms, refusal: null } },
        ),
      );
      return sendPage(request, reply, page);
    }

    if (cache) {
      for (const path of PAGE_PATHS) {
        app.get(path, { compress: false }, async (request, reply) => {
          if (path === CONFIRM_SUBSCRIPTION_PATH) return sendConfirmationPage(request, reply);
          const preview = await app.draftPreview(request);
          return preview ? sendPreview(reply, path, preview) : send(request, reply, path);
        });
      }
      slugPages(CASE_STUDY_ROUTE, caseStudyPath, UNKNOWN_CASE_STUDY_PATH, async (slug, content) =>
        (await content.caseStudies()).some((study) => study.slug === slug),
      );
      slugPages(
        INSIGHT_ISSUE_ROUTE,
        insightIssuePath,
        UNKNOWN_INSIGHT_ISSUE_PATH,
        async (slug, content) => (await content.insightIssue(slug)) !== null,
        (slug) => app.content.insightIssueWithdrawn(slug),
      );
      if (renderer?.submit) {
        await app.register(formPosts, {
          paths: FORM_PATHS,
          submit: renderer.submit,
          origin,
          token,
        });
      }
      // Rendered once the server listens, in the background and one at a
      // time: a restart answers at once, a visitor's request waits behind
      // one page's rendering at most (the one they asked for is rendered on
      // demand, once), and the cache is warm a moment later.
      app.addHook("onListen", async () => {
        const renderAhead = async () => {
          for (const path of [...PAGE_PATHS, NOT_FOUND_PATH]) await cache.get(path);
        };
        renderAhead().catch((error: unknown) =>
          app.log.error({ err: error }, "rendering the pages ahead failed"),
        );
      });
    } else {
      app.log.warn("no server build; serving the API only (npm run build makes it)");
    }

    app.setNotFoundHandler(async (request, reply) => {
      if (request.url.startsWith(API_ROOT)) {
        throw app.httpErrors.notFound(`No API route ${request.method} ${request.url}`);
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw app.httpErrors.notFound("Not found");
      }
      return send(request, reply, NOT_FOUND_PATH, 404);
    });
  },
  {
    name: "pages",
    dependencies: [
      "audience",
      "content",
      "inquiries",
      "subscriptions",
      "xsrf",
      "bot-defence",
      "rate-limit",
    ],
  },
);

/** The site's content with `draft` as the issue at its slug, published or not: for a preview only. */
function withDraft(content: ContentReader, draft: InsightIssue): ContentReader {
  return readerWith(content, {
    insightIssue: async (slug) => (slug === draft.slug ? draft : content.insightIssue(slug)),
  });
}
