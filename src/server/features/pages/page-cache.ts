/**
 * Rendered pages, kept in memory per path with their compressed bodies and
 * ETag, so serving a page costs what serving a static file does. A page is
 * rendered on its first request (concurrent requests share that render), and
 * clear() drops them all when the content they show changes.
 */
import type { PageContext } from "../../../shared/page-context.ts";
import { type EncodedBody, EncodedCache, encodeBody } from "../../platform/http/encoded-body.ts";
import type { PolicyFor } from "../../platform/security/headers.ts";
import { hashInlineContent } from "./inline-scripts.ts";
import type { PageRenderer, RenderedPage } from "./renderer.ts";

export interface CachedPage extends EncodedBody {
  status: number;
  /** The Content-Security-Policy that allows exactly this page's inline scripts and styles. */
  csp: string;
}

/**
 * The Content-Security-Policy of one rendered page: it allows exactly the
 * inline scripts and styles in `html`. Cached pages and pages answering a
 * form's POST (features/pages/form-posts.ts) get theirs from here, with app.pagePolicy.
 */
export function policyForPage(html: string, policyFor: PolicyFor): string {
  return policyFor(hashInlineContent(html));
}

export class PageCache {
  private readonly pages = new EncodedCache<CachedPage>();

  constructor(
    private readonly render: PageRenderer,
    private readonly context: PageContext,
    private readonly policyFor: PolicyFor,
  ) {}

  get(path: string): Promise<CachedPage> {
    return this.pages.get(path, () => this.build(() => this.render(path, this.context)));
  }

  /** A page that is not a GET of its path (one outcome of a form), kept under `key` with the others. */
  getRendered(key: string, render: () => Promise<RenderedPage>): Promise<CachedPage> {
    return this.pages.get(key, () => this.build(render));
  }

  clear(): void {
    this.pages.clear();
  }

  private async build(render: () => Promise<RenderedPage>): Promise<CachedPage> {
    const { status, html } = await render();
    return { status, csp: policyForPage(html, this.policyFor), ...(await encodeBody(html)) };
  }
}
