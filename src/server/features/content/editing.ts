/**
 * Every change to the site's content, from the console or the import: each
 * runs through app.content.edit(), so the public pages show it on the next
 * request, and each keeps the whole new record as a version, in the same
 * transaction. A save names the version it was based on; when another save
 * came first it is refused (409) and nothing is written.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import {
  CONTENT_TEXTS,
  type EntryFields,
  type ListSpec,
  ORDER_ENTITY,
} from "../../../shared/admin/content.ts";
import type { Author } from "../../platform/console/author.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { isUniqueViolation } from "../../platform/db/unique-violation.ts";
import { type FieldReasons, RequestRefusal } from "../../platform/refusal.ts";
import {
  findEntry,
  findIdByField,
  insertEntry,
  listEntries,
  type StoredEntry,
  setPositions,
  updateEntry,
} from "./admin-queries.ts";
import {
  BASELINE_AUTHOR,
  findVersion,
  latestVersion,
  listVersions,
  recordChange,
  recordVersion,
  type VersionRow,
} from "./content-versions.ts";
import type { SiteContent } from "./site-content.ts";

/** The author of the version a record had before its first versioned change. */

/**
 * A change the content refuses; its status and message are for the client,
 * with the fields it is about (none named still says `fields: {}`, as the
 * console's content forms have always been answered).
 */
export class ContentRefusal extends RequestRefusal {
  constructor(statusCode: 404 | 409, message: string, fields: FieldReasons = {}) {
    super(statusCode, message, fields);
  }
}

/** A record's state as a version stores it. */
export interface EntryState {
  fields: EntryFields;
  hidden: boolean;
}

export interface OrderedList {
  orderVersion: number;
  entries: StoredEntry[];
}

const staleOrder = () => new ContentRefusal(409, CONTENT_TEXTS.staleOrder);
const keyOf = (id: number) => String(id);

export class ContentEditor {
  constructor(
    private readonly content: SiteContent,
    private readonly db: Kysely<Database>,
  ) {}

  /** The same editor writing inside `trx`: a change and its audit entry commit together. */
  within(trx: Transaction<Database>): ContentEditor {
    return new ContentEditor(this.content, trx);
  }

  private edit<T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.content.edit(write, this.db);
  }

  /** A list with its hidden records, and the version of its order. */
  async list(spec: ListSpec): Promise<OrderedList> {
    const [entries, orderVersion] = await Promise.all([
      listEntries(this.db, spec),
      latestVersion(this.db, ORDER_ENTITY, spec.list),
    ]);
    return { orderVersion, entries };
  }

  async find(spec: ListSpec, id: number): Promise<StoredEntry> {
    const entry = await findEntry(this.db, spec, id);
    if (!entry) throw new ContentRefusal(404, CONTENT_TEXTS.notFound(spec.singular));
    return entry;
  }

  /**
   * A record's versions, newest first. A record not changed since the seed
   * has none stored yet: its current state is shown as its first version.
   */
  async versions(spec: ListSpec, id: number): Promise<(VersionRow & { data: EntryState })[]> {
    const entry = await this.find(spec, id);
    const stored = await listVersions(this.db, spec.entity, keyOf(id));
    const versions = stored.map((row) => ({ ...row, data: row.data as EntryState }));
    if ((stored[0]?.version ?? 0) < entry.version) {
      versions.unshift({
        version: entry.version,
        author: BASELINE_AUTHOR,
        createdAt: entry.updatedAt,
        data: stateOf(entry),
      });
    }
    return versions;
  }

  create(spec: ListSpec, state: EntryState, author: Author): Promise<StoredEntry> {
    return this.edit((trx) => createIn(trx, spec, state, author));
  }

  save(
    spec: ListSpec,
    id: number,
    loadedVersion: number,
    state: EntryState,
    author: Author,
  ): Promise<StoredEntry> {
    return this.edit((trx) => saveIn(trx, spec, id, loadedVersion, () => state, author));
  }

  setHidden(
    spec: ListSpec,
    id: number,
    loadedVersion: number,
    hidden: boolean,
    author: Author,
  ): Promise<StoredEntry> {
    return this.edit((trx) =>
      saveIn(
        trx,
        spec,
        id,
        loadedVersion,
        (current) => ({ ...stateOf(current), hidden }),
        author,
        CONTENT_TEXTS.staleAction(spec.singular),
      ),
    );
  }

  /** Writes an earlier version's record as the newest version. */
  restore(
    spec: ListSpec,
    id: number,
    loadedVersion: number,
    fromVersion: number,
    author: Author,
  ): Promise<StoredEntry> {
    return this.edit(async (trx) => {
      const earlier = await findVersion(trx, spec.entity, keyOf(id), fromVersion);
      if (!earlier) throw new ContentRefusal(404, CONTENT_TEXTS.noSuchVersion);
      const state = storedState(spec).safeParse(earlier.data);
      if (!state.success) {
        throw new ContentRefusal(
          409,
          CONTENT_TEXTS.unreadableVersion(state.error.issues[0]?.message ?? "it is incomplete."),
        );
      }
      const stale = CONTENT_TEXTS.staleAction(spec.singular);
      return saveIn(trx, spec, id, loadedVersion, () => state.data, author, stale);
    });
  }

  /** Puts the list in the order of `ids`, which must name each of its records once. */
  reorder(
    spec: ListSpec,
    loadedOrderVersion: number,
    ids: readonly number[],
    author: Author,
  ): Promise<OrderedList> {
    return this.edit(async (trx) => {
      const orderVersion = await latestVersion(trx, ORDER_ENTITY, spec.list);
      const entries = await listEntries(trx, spec);
      if (
        orderVersion !== loadedOrderVersion ||
        !sameMembers(
          entries.map((e) => e.id),
          ids,
        )
      ) {
        throw staleOrder();
      }
      // Recorded first: of two reorders from the same version, the second
      // stops here on the unique (entity, key, version) before moving anything.
      await recordVersion(trx, {
        entity: ORDER_ENTITY,
        key: spec.list,
        version: orderVersion + 1,
        data: ids,
        userId: author.userId,
        author: author.recordedAs,
        at: nowIso(),
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? staleOrder() : error;
      });
      await setPositions(trx, spec, ids);
      const byId = new Map(entries.map((entry) => [entry.id, entry]));
      return {
        orderVersion: orderVersion + 1,
        entries: ids.flatMap((id) => byId.get(id) ?? []),
      };
    });
  }
}

function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  const sorted = (ids: readonly number[]) => [...ids].sort((x, y) => x - y).join();
  return sorted(a) === sorted(b);
}

export function stateOf(entry: StoredEntry): EntryState {
  return { fields: entry.fields, hidden: entry.hidden };
}

/** What a version's data must hold to be written again. */
function storedState(spec: ListSpec) {
  return z.object({ fields: spec.schema, hidden: z.boolean() });
}

/**
 * Runs a write of `fields`, refused when another record of the list has the
 * same key: checked first, for a clear answer, and caught from the unique
 * constraint for a write that raced another.
 */
async function withUniqueKey<T>(
  db: Kysely<Database>,
  spec: ListSpec,
  fields: EntryFields,
  exceptId: number | undefined,
  write: () => Promise<T>,
): Promise<T> {
  const value = fields[spec.keyField] ?? "";
  const label = spec.fields.find((field) => field.name === spec.keyField)?.label ?? spec.keyField;
  const message = CONTENT_TEXTS.duplicate(spec.singular, label, value);
  const duplicate = new ContentRefusal(409, message, { [spec.keyField]: message });
  if ((await findIdByField(db, spec, spec.keyField, value, exceptId)) !== undefined)
    throw duplicate;
  return write().catch((error: unknown) => {
    throw isUniqueViolation(error) ? duplicate : error;
  });
}

/** Creates a record at the end of its list, as version 1. */
export async function createIn(
  trx: Kysely<Database>,
  spec: ListSpec,
  state: EntryState,
  author: Author,
): Promise<StoredEntry> {
  const now = nowIso();
  const id = await withUniqueKey(trx, spec, state.fields, undefined, () =>
    insertEntry(trx, spec, state.fields, state.hidden, now),
  );
  await recordVersion(trx, {
    entity: spec.entity,
    key: keyOf(id),
    version: 1,
    data: state,
    userId: author.userId,
    author: author.recordedAs,
    at: now,
  });
  return { id, version: 1, updatedAt: now, ...state };
}

/**
 * Writes the record's next version, computed from its current one, if the
 * record is still at `loadedVersion` (else refuses with `staleMessage`). The
 * version it replaces is recorded first if it never was (a record as the
 * seed left it).
 */
export async function saveIn(
  trx: Kysely<Database>,
  spec: ListSpec,
  id: number,
  loadedVersion: number,
  next: (current: StoredEntry) => EntryState,
  author: Author,
  staleMessage: string = CONTENT_TEXTS.stale(spec.singular),
): Promise<StoredEntry> {
  const stale = () => new ContentRefusal(409, staleMessage);
  const current = await findEntry(trx, spec, id);
  if (!current) throw new ContentRefusal(404, CONTENT_TEXTS.notFound(spec.singular));
  if (current.version !== loadedVersion) throw stale();
  const state = next(current);
  const now = nowIso();
  const updated = await withUniqueKey(trx, spec, state.fields, id, () =>
    updateEntry(trx, spec, id, loadedVersion, state, now),
  );
  if (!updated) throw stale();
  const record = { entity: spec.entity, key: keyOf(id) };
  await recordChange(trx, {
    ...record,
    from: { version: loadedVersion, data: stateOf(current), at: current.updatedAt },
    to: { data: state, userId: author.userId, author: author.recordedAs, at: now },
  });
  return { id, version: loadedVersion + 1, updatedAt: now, ...state };
}
