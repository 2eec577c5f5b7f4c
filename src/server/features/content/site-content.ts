/**
 * The site's content as the API and the pages read it: each list, and the
 * site facts, are queried once and then served from memory. Content is
 * written only through `app.content.edit(trx => …)`: when the write commits,
 * the lists and the rendered pages are dropped here and, on PostgreSQL, on
 * every other instance (change-feed.ts), so the next request anywhere shows
 * the change. The Insight archive is content too: a send that begins, or is
 * cancelled, and a sent issue's page corrected, withdrawn or put back, are
 * written through `edit` as well.
 */

import type { Kysely, Transaction } from "kysely";
import type { DatedCaseStudy, ListedItem, TeamMember } from "../../../shared/content.ts";
import type { ContentCategory } from "../../../shared/content-categories.ts";
import { highlightsOf, type SiteHighlights } from "../../../shared/highlights.ts";
import { inquiryTypesOf } from "../../../shared/inquiry.ts";
import type { InsightIssue, InsightSummary } from "../../../shared/insight.ts";
import type { ContentReader, PrivacyNotice } from "../../../shared/page-context.ts";
import { type PageFacts, pageFacts } from "../../../shared/site-facts.ts";
import type { Topic } from "../../../shared/subscription.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { Database } from "../../platform/db/schema.ts";
import { afterCommit, inTransaction } from "../../platform/db/transaction.ts";
import { renderPageMarkdown } from "../../platform/markdown/markdown.ts";
import { listTopics } from "../subscriptions/index.ts";
import { type ChangeFeed, SOLO_FEED } from "./change-feed.ts";
import { type ContentChanges, readContentChanges } from "./content-changes.ts";
import { listPublishedIssues, listWithdrawnSlugs, readPublishedIssue } from "./insight-archive.ts";
import { listCaseStudies, listItems, listTeam } from "./queries.ts";
import { readStoredFacts } from "./site-facts-rows.ts";

export class SiteContent implements ContentReader {
  private readonly lists = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly feed: ChangeFeed = SOLO_FEED,
  ) {}

  team(): Promise<TeamMember[]> {
    return this.cached("team", () => listTeam(this.database.db));
  }

  items(category: ContentCategory): Promise<ListedItem[]> {
    return this.cached(`items:${category}`, () => listItems(this.database.db, category));
  }

  caseStudies(): Promise<DatedCaseStudy[]> {
    return this.cached("case-studies", () => listCaseStudies(this.database.db));
  }

  /** The Insight archive: every published issue, newest first, without its body. */
  insightIssues(): Promise<InsightSummary[]> {
    return this.cached("insight-issues", () => listPublishedIssues(this.database.db));
  }

  /**
   * A published issue with its body, or null. Only a slug the archive lists
   * is looked up and kept, so made-up addresses cost no query and no memory.
   */
  async insightIssue(slug: string): Promise<InsightIssue | null> {
    const listed = (await this.insightIssues()).some((issue) => issue.slug === slug);
    if (!listed) return null;
    return this.cached(`insight-issue:${slug}`, () => readPublishedIssue(this.database.db, slug));
  }

  /** Whether `slug` is the address of an issue withdrawn from the archive (its page is gone, not unknown). */
  async insightIssueWithdrawn(slug: string): Promise<boolean> {
    const withdrawn = await this.cached("insight-withdrawn", () =>
      listWithdrawnSlugs(this.database.db),
    );
    return withdrawn.includes(slug);
  }

  /** The topics the subscribe page offers (features/subscriptions/topics.ts). */
  topics(): Promise<Topic[]> {
    return this.cached("topics", () => listTopics(this.database.db));
  }

  /** Made from the two lists above, which are kept: nothing to keep of its own. */
  async highlights(): Promise<SiteHighlights> {
    return highlightsOf(await this.caseStudies(), await this.insightIssues());
  }

  /**
   * The inquiry types on offer: one per visible capability, in the firm's
   * order, then "Something Else". Made from the kept list, so the form and
   * the server's check change together.
   */
  async inquiryTypes(): Promise<string[]> {
    return inquiryTypesOf((await this.items("capabilities")).map(({ name }) => name));
  }

  /** The mission, the invitations, the contact address and the network link (every page shows some). */
  facts(): Promise<PageFacts> {
    return this.cached("site-facts", async () =>
      pageFacts((await readStoredFacts(this.database.db)).facts),
    );
  }

  /** The privacy notice, rendered from its Markdown once per change. */
  privacyNotice(): Promise<PrivacyNotice> {
    return this.cached("privacy-notice", async () => {
      const { facts, updatedAt } = await readStoredFacts(this.database.db);
      return {
        html: renderPageMarkdown(facts.privacyNotice),
        updatedAt,
        contactEmail: facts.contactEmail,
      };
    });
  }

  /** When each part of the content last changed: the sitemap's and the feed's dates. */
  changes(): Promise<ContentChanges> {
    return this.cached("changes", () => readContentChanges(this.database.db));
  }

  /**
   * Writes content in one transaction (the caller's, when `db` is one); once
   * it commits, every instance shows it.
   */
  edit<T>(
    write: (trx: Transaction<Database>) => Promise<T>,
    db: Kysely<Database> = this.database.db,
  ): Promise<T> {
    return inTransaction(db, async (trx) => {
      const written = await write(trx);
      await this.feed.announce(trx);
      afterCommit(trx, () => this.changed());
      return written;
    });
  }

  /** Calls `listener` whenever content changed (here or on another instance). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Content changed: the next read queries again, and listeners drop what they built from it. */
  changed(): void {
    this.lists.clear();
    for (const listener of this.listeners) listener();
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    let list = this.lists.get(key) as Promise<T> | undefined;
    if (!list) {
      list = load();
      this.lists.set(key, list);
      // A failed query is not kept: the next request tries again.
      list.catch(() => this.lists.delete(key));
    }
    return list;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    content: SiteContent;
  }
}
