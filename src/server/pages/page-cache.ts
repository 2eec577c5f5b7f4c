/**
 * Rendered pages, kept in memory per path with their compressed bodies and
 * ETag, so serving a page costs what serving a static file does. A page is
 * rendered on its first request (concurrent requests share that render), and
 * clear() drops them all when the content they show changes.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { PageContext } from "../../shared/page-context.ts";
import { hashInlineScripts } from "./inline-scripts.ts";
import type { PageRenderer } from "./renderer.ts";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type Encoding = "br" | "gzip" | "identity";

export interface CachedPage {
  status: number;
  /** A strong validator of the page's bytes, without quotes or encoding suffix. */
  etag: string;
  /** The Content-Security-Policy that allows exactly this page's inline scripts. */
  csp: string;
  bodies: Record<Encoding, Buffer>;
}

/** What turns a page's inline script hashes into its policy (security/headers.ts). */
export type PolicyFor = (inlineScriptHashes: string[]) => string;

/**
 * The Content-Security-Policy of one rendered page: it allows exactly the
 * inline scripts in `html`. Cached pages and pages answering a form's POST
 * (pages/plugin.ts) get theirs from here.
 */
export function policyForPage(html: string, policyFor: PolicyFor): string {
  return policyFor(hashInlineScripts(html));
}

export class PageCache {
  private readonly pages = new Map<string, Promise<CachedPage>>();

  constructor(
    private readonly render: PageRenderer,
    private readonly context: PageContext,
    private readonly policyFor: PolicyFor,
  ) {}

  get(path: string): Promise<CachedPage> {
    let page = this.pages.get(path);
    if (!page) {
      page = this.build(path);
      this.pages.set(path, page);
      // A failed render is not kept: the next request tries again.
      page.catch(() => this.pages.delete(path));
    }
    return page;
  }

  clear(): void {
    this.pages.clear();
  }

  private async build(path: string): Promise<CachedPage> {
    const { status, html } = await this.render(path, this.context);
    const identity = Buffer.from(html);
    const [br, gzip] = await Promise.all([
      brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gz(identity, { level: 9 }),
    ]);
    return {
      status,
      etag: createHash("sha256").update(identity).digest("base64url").slice(0, 27),
      csp: policyForPage(html, this.policyFor),
      bodies: { identity, br, gzip },
    };
  }
}
