/**
 * Every change to the site facts, from the console or the import, as
 * editing.ts makes the lists' changes: through app.content.edit(), so the
 * pages show it on the next request, with the whole new set of facts kept as
 * a version in the same transaction. The five facts are one record with one
 * version: a save names the version it was based on, and when another save
 * came first it is refused (409) and nothing is written.
 */
import type { Kysely, Transaction } from "kysely";
import { CONTENT_TEXTS } from "../../../shared/admin/content.ts";
import {
  SITE_FACTS_ENTITY,
  SITE_FACTS_KEY,
  SITE_FACTS_TEXTS,
} from "../../../shared/admin/site-facts.ts";
import {
  SITE_FACT_KEYS,
  type SiteFactKey,
  type SiteFacts,
  siteFactsSchema,
} from "../../../shared/site-facts.ts";
import type { Author } from "../../platform/console/author.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { isUniqueViolation } from "../../platform/db/unique-violation.ts";
import {
  BASELINE_AUTHOR,
  findVersion,
  listVersions,
  recordChange,
  type VersionRow,
} from "./content-versions.ts";
import { ContentRefusal } from "./editing.ts";
import type { SiteContent } from "./site-content.ts";
import { readStoredFacts, type StoredFacts, writeSiteFacts } from "./site-facts-rows.ts";

const record = { entity: SITE_FACTS_ENTITY, key: SITE_FACTS_KEY };

/** Facts as a save left them, and which of them it changed (for the audit log). */
export interface SavedFacts extends StoredFacts {
  changed: SiteFactKey[];
}

export class SiteFactsEditor {
  constructor(
    private readonly content: SiteContent,
    private readonly db: Kysely<Database>,
  ) {}

  /** The same editor writing inside `trx`: a change and its audit entry commit together. */
  within(trx: Transaction<Database>): SiteFactsEditor {
    return new SiteFactsEditor(this.content, trx);
  }

  private edit<T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.content.edit(write, this.db);
  }

  current(): Promise<StoredFacts> {
    return readStoredFacts(this.db);
  }

  /**
   * The versions, newest first. Facts not changed since the seed have none
   * stored yet: their current state is shown as their first version.
   */
  async versions(): Promise<(VersionRow & { data: SiteFacts })[]> {
    const current = await this.current();
    const stored = await listVersions(this.db, record.entity, record.key);
    const versions = stored.map((row) => ({ ...row, data: row.data as SiteFacts }));
    if ((stored[0]?.version ?? 0) < current.version) {
      versions.unshift({
        version: current.version,
        author: BASELINE_AUTHOR,
        createdAt: current.updatedAt,
        data: current.facts,
      });
    }
    return versions;
  }

  save(loadedVersion: number, facts: SiteFacts, author: Author): Promise<SavedFacts> {
    return this.edit((trx) => saveFactsIn(trx, loadedVersion, facts, author));
  }

  /** Writes an earlier version's facts as the newest version. */
  restore(loadedVersion: number, fromVersion: number, author: Author): Promise<SavedFacts> {
    return this.edit(async (trx) => {
      const earlier = await findVersion(trx, record.entity, record.key, fromVersion);
      if (!earlier) throw new ContentRefusal(404, CONTENT_TEXTS.noSuchVersion);
      const facts = siteFactsSchema.safeParse(earlier.data);
      if (!facts.success) {
        throw new ContentRefusal(
          409,
          CONTENT_TEXTS.unreadableVersion(facts.error.issues[0]?.message ?? "it is incomplete."),
        );
      }
      return saveFactsIn(trx, loadedVersion, facts.data, author, SITE_FACTS_TEXTS.staleAction);
    });
  }
}

/**
 * Writes `facts` as the next version if the facts are still at
 * `loadedVersion` (else refuses with `staleMessage`). The version it replaces
 * is recorded first if it never was (the facts as the seed left them). Of two
 * saves from the same version, the second stops on the unique (entity, key,
 * version) of content_versions before writing anything.
 */
export async function saveFactsIn(
  trx: Kysely<Database>,
  loadedVersion: number,
  facts: SiteFacts,
  author: Author,
  staleMessage: string = SITE_FACTS_TEXTS.stale,
): Promise<SavedFacts> {
  const stale = () => new ContentRefusal(409, staleMessage);
  const current = await readStoredFacts(trx);
  if (current.version !== loadedVersion) throw stale();
  const now = nowIso();
  await recordChange(trx, {
    ...record,
    from: { version: loadedVersion, data: current.facts, at: current.updatedAt },
    to: { data: facts, userId: author.userId, author: author.recordedAs, at: now },
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? stale() : error;
  });
  await writeSiteFacts(trx, facts, loadedVersion + 1, now);
  const changed = SITE_FACT_KEYS.filter((key) => current.facts[key] !== facts[key]);
  return { facts, version: loadedVersion + 1, updatedAt: now, changed };
}
