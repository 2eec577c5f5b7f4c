/**
 * The site's content as the API and the pages read it: each list is queried
 * once and then served from memory. `app.content.changed()` is the one call a
 * writer of content makes afterwards: it drops the lists and the rendered
 * pages, so the next request shows the change.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ContentCategory, ContentItem, TeamMember } from "../../shared/content.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { listItems, listTeam } from "../db/content.ts";

export class SiteContent {
  private readonly lists = new Map<string, Promise<unknown>>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly onChange: () => void,
  ) {}

  team(): Promise<TeamMember[]> {
    return this.cached("team", () => listTeam(this.database.db));
  }

  items(category: ContentCategory): Promise<ContentItem[]> {
    return this.cached(`items:${category}`, () => listItems(this.database.db, category));
  }

  /** Content was written: the next read queries again and pages render again. */
  changed(): void {
    this.lists.clear();
    this.onChange();
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

export default fp(
  async function content(app: FastifyInstance, { database }: { database: DatabaseHandle }) {
    app.decorate("content", new SiteContent(database, () => app.pages?.clear()));
  },
  { name: "content", dependencies: ["pages"] },
);
