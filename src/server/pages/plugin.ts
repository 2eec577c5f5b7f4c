/**
 * The site's pages, rendered at run time and served from memory (ADR 010).
 * Each page is sent with its ETag (304 when the browser has it), in the
 * encoding the browser prefers, and with a Content-Security-Policy that
 * allows exactly its inline scripts. Any other path outside /api/ shows Home
 * with status 404 (ADR 002). The forms' pages also answer the forms posted
 * without JavaScript, rendered for each post and never cached
 * (forms/routes.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_ROOT } from "../../shared/api-paths.ts";
import type { DefendedForm } from "../../shared/bot-defence.ts";
import type { PageContext } from "../../shared/page-context.ts";
import {
  CASE_STUDY_ROUTE,
  caseStudyPath,
  NOT_FOUND_PATH,
  PAGE_PATHS,
  ROUTES,
  SUBSCRIBE_PATH,
  UNKNOWN_CASE_STUDY_PATH,
} from "../../shared/routes.ts";
import { formToken } from "../forms/form-token.ts";
import formPosts from "../forms/routes.ts";
import { pageFormService } from "../forms/service.ts";
import { sendEncoded } from "../http/encoded-body.ts";
import { PageCache } from "./page-cache.ts";
import type { PageRenderer } from "./renderer.ts";

export const HTML_CACHE_CONTROL = "no-cache";

declare module "fastify" {
  interface FastifyInstance {
    /** The rendered pages; clear() when the content they show changes. */
    pages: PageCache | null;
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
      const page = await cache.get(path);
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", HTML_CACHE_CONTROL)
        .header("content-security-policy", page.csp);
      return sendEncoded(request, reply, page, status ?? page.status);
    }

    if (cache) {
      for (const path of PAGE_PATHS) {
        app.get(path, { compress: false }, (request, reply) => send(request, reply, path));
      }
      // A case study the content has is a page; any other slug is an unknown path.
      app.get<{ Params: { slug: string } }>(
        CASE_STUDY_ROUTE,
        { compress: false },
        async (request, reply) => {
          const studies = await app.content.caseStudies();
          const known = studies.some((study) => study.slug === request.params.slug);
          return known
            ? send(request, reply, caseStudyPath(request.params.slug))
            : send(request, reply, UNKNOWN_CASE_STUDY_PATH, 404);
        },
      );
      if (renderer?.submit) {
        await app.register(formPosts, {
          paths: FORM_PATHS,
          submit: renderer.submit,
          origin,
          token,
        });
      }
      // Rendered before the first visitor comes, which also proves the build works.
      app.addHook("onReady", async () => {
        await Promise.all([...PAGE_PATHS, NOT_FOUND_PATH].map((path) => cache.get(path)));
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
  { name: "pages", dependencies: ["content", "mail", "xsrf", "bot-defence", "rate-limit"] },
);
