/**
 * Drafts of the lists' records (ADR 044): an edit saved aside while the site
 * keeps showing the published record, then published through the same
 * versioned save as any other change (editing.ts saveIn), now or by the
 * scheduled publisher. A draft remembers the version it began from; when the
 * record has moved on since (someone saved, restored or hid it), publishing
 * it is refused rather than overwriting their change, and the draft stays.
 */
import type { Kysely, Transaction } from "kysely";
import {
  CONTENT_TEXTS,
  type EntryFields,
  LIST_SPECS,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import { DRAFT_TEXTS } from "../../../shared/admin/content-drafts.ts";
import type { Author } from "../../platform/console/author.ts";
import type { Database } from "../../platform/db/schema.ts";
import { findEntry, type StoredEntry } from "./admin-queries.ts";
import {
  deleteDraft,
  findDraft,
  type StoredDraft,
  setPublishTime,
  upsertDraft,
} from "./draft-rows.ts";
import { ContentRefusal, saveIn } from "./editing.ts";
import type { SiteContent } from "./site-content.ts";

export class DraftEditor {
  constructor(
    private readonly content: SiteContent,
    private readonly db: Kysely<Database>,
    /** The clock scheduled times are compared with (epoch ms). */
    private readonly now: () => number,
  ) {}

  /** The same editor writing inside `trx`: a change and its audit entry commit together. */
  within(trx: Transaction<Database>): DraftEditor {
    return new DraftEditor(this.content, trx, this.now);
  }

  /** The record's draft, or null; a record that does not exist is refused. */
  async find(spec: ListSpec, id: number): Promise<StoredDraft | null> {
    await this.record(spec, id);
    return (await findDraft(this.db, spec.list, id)) ?? null;
  }

  /** Saves the record's draft; the published record and the site do not change. */
  async save(
    spec: ListSpec,
    id: number,
    fields: EntryFields,
    baseVersion: number,
    author: Author,
  ): Promise<StoredDraft> {
    await this.record(spec, id);
    return upsertDraft(this.db, {
      list: spec.list,
      recordId: id,
      fields,
      baseVersion,
      author,
      at: new Date(this.now()).toISOString(),
    });
  }

  /** Removes the record's draft; the one removed. */
  async discard(spec: ListSpec, id: number): Promise<StoredDraft> {
    const draft = await this.get(spec, id);
    await deleteDraft(this.db, draft.id);
    return draft;
  }

  /** Publishes the record's draft now: a new version of the record, and the draft goes. */
  async publish(spec: ListSpec, id: number, author: Author): Promise<StoredEntry> {
    return this.content.edit(async (trx) => {
      const draft = await this.within(trx).get(spec, id);
      return publishDraftIn(trx, draft, author);
    }, this.db);
  }

  /** Sets the time the publisher is to publish the draft at; it must be in the future. */
  async schedule(
    spec: ListSpec,
    id: number,
    publishAt: string,
    author: Author,
  ): Promise<StoredDraft> {
    const at = new Date(publishAt);
    if (at.getTime() <= this.now()) {
      throw new ContentRefusal(409, DRAFT_TEXTS.pastTime, { publishAt: DRAFT_TEXTS.pastTime });
    }
    const draft = await this.get(spec, id);
    const scheduled = await setPublishTime(this.db, draft.id, at.toISOString(), author.recordedAs);
    if (!scheduled) throw new ContentRefusal(404, DRAFT_TEXTS.noDraft(spec.singular));
    return scheduled;
  }

  /** Takes the draft off the schedule; it stays a draft. */
  async unschedule(spec: ListSpec, id: number): Promise<StoredDraft> {
    const draft = await this.get(spec, id);
    const unscheduled = await setPublishTime(this.db, draft.id, null, null);
    if (!unscheduled) throw new ContentRefusal(404, DRAFT_TEXTS.noDraft(spec.singular));
    return unscheduled;
  }

  private async record(spec: ListSpec, id: number): Promise<StoredEntry> {
    const entry = await findEntry(this.db, spec, id);
    if (!entry) throw new ContentRefusal(404, CONTENT_TEXTS.notFound(spec.singular));
    return entry;
  }

  /** The record's draft; refused when it has none. */
  async get(spec: ListSpec, id: number): Promise<StoredDraft> {
    const draft = await this.find(spec, id);
    if (!draft) throw new ContentRefusal(404, DRAFT_TEXTS.noDraft(spec.singular));
    return draft;
  }
}

/**
 * Writes the draft's fields as the record's next version (keeping whether it
 * is hidden) and removes the draft, in `trx`; refused, with nothing written,
 * when the record is no longer at the version the draft began from.
 */
export async function publishDraftIn(
  trx: Kysely<Database>,
  draft: StoredDraft,
  author: Author,
): Promise<StoredEntry> {
  const spec = LIST_SPECS[draft.list];
  const current = await findEntry(trx, spec, draft.recordId);
  if (!current) throw new ContentRefusal(404, CONTENT_TEXTS.notFound(spec.singular));
  const conflict = DRAFT_TEXTS.conflict(spec.singular, draft.baseVersion, current.version);
  if (current.version !== draft.baseVersion) throw new ContentRefusal(409, conflict);
  const entry = await saveIn(
    trx,
    spec,
    draft.recordId,
    draft.baseVersion,
    (record) => ({ fields: draft.fields, hidden: record.hidden }),
    author,
    conflict,
  );
  await deleteDraft(trx, draft.id);
  return entry;
}
