/**
 * The console's queries on the three content tables: every record of a list
 * (hidden ones too), and the writes, each guarded by the version the editor
 * loaded (`where id = ? and version = ?`, setting version = version + 1).
 * One list is one table, or one category of content_items; a list's fields
 * are columns of the same name, in snake case where the name has two words.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { EntryFields, ListSpec, VersionedEntity } from "../../../shared/admin/content.ts";
import type { Database } from "../../platform/db/schema.ts";

type VersionedTable = "team_members" | "content_items" | "case_studies";

const TABLES: Record<VersionedEntity, VersionedTable> = {
  team: "team_members",
  item: "content_items",
  "case-study": "case_studies",
};

/** A content row as the console sees it. */
export interface StoredEntry {
  id: number;
  version: number;
  hidden: boolean;
  updatedAt: string;
  fields: EntryFields;
}

type VersionedRow = Selectable<Database[VersionedTable]>;

// The writes below are cast: Kysely types the columns of a union of tables as
// the ones they all share, and a list's own columns come from its spec.

const COLUMNS: Readonly<Record<string, string>> = {
  imagePath: "image_path",
  menuLine: "menu_line",
  outcomeFigure: "outcome_figure",
  outcomeLabel: "outcome_label",
};
const columnOf = (field: string) => COLUMNS[field] ?? field;

function fieldNamesOf(spec: ListSpec): string[] {
  return [...spec.fields.map((field) => field.name), ...(spec.image ? ["imagePath"] : [])];
}

function toEntry(spec: ListSpec, row: VersionedRow): StoredEntry {
  const columns = row as unknown as Record<string, unknown>;
  const fields: EntryFields = {};
  for (const name of fieldNamesOf(spec)) fields[name] = String(columns[columnOf(name)] ?? "");
  return {
    id: row.id,
    version: row.version,
    hidden: row.hidden === 1,
    updatedAt: row.updated_at,
    fields,
  };
}

/** The columns a record's fields are written to. */
export function columnsOf(spec: ListSpec, fields: EntryFields): Record<string, string> {
  return Object.fromEntries(fieldNamesOf(spec).map((name) => [columnOf(name), fields[name] ?? ""]));
}

/** A list's rows: its table, narrowed to its category for an item list. */
function selectList(db: Kysely<Database>, spec: ListSpec) {
  const query = db.selectFrom(TABLES[spec.entity]);
  return spec.category ? query.where(sql.ref("category"), "=", spec.category) : query;
}

export async function listEntries(db: Kysely<Database>, spec: ListSpec): Promise<StoredEntry[]> {
  const rows = await selectList(db, spec).selectAll().orderBy("position").orderBy("id").execute();
  return rows.map((row) => toEntry(spec, row as VersionedRow));
}

export async function findEntry(
  db: Kysely<Database>,
  spec: ListSpec,
  id: number,
): Promise<StoredEntry | undefined> {
  const row = await selectList(db, spec).selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toEntry(spec, row as VersionedRow) : undefined;
}

/** The record of this list whose `field` is `value`, other than `exceptId`. */
export async function findIdByField(
  db: Kysely<Database>,
  spec: ListSpec,
  field: string,
  value: string,
  exceptId?: number,
): Promise<number | undefined> {
  let query = selectList(db, spec)
    .select("id")
    .where(sql.ref(columnOf(field)), "=", value);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const row = await query.executeTakeFirst();
  return row?.id;
}

export async function insertEntry(
  db: Kysely<Database>,
  spec: ListSpec,
  fields: EntryFields,
  hidden: boolean,
  now: string,
): Promise<number> {
  const last = await selectList(db, spec)
    .select((eb) => eb.fn.max("position").as("position"))
    .executeTakeFirst();
  // max() is null for an empty list.
  const position = Number(last?.position ?? -1) + 1;
  const row = await db
    .insertInto(TABLES[spec.entity])
    .values({
      ...columnsOf(spec, fields),
      ...(spec.category ? { category: spec.category } : {}),
      position,
      hidden: hidden ? 1 : 0,
      version: 1,
      created_at: now,
      updated_at: now,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Writes `changes` if the record is still at `version`, and moves it to the
 * next version; false when another save came first (or there is no record).
 */
export async function updateEntry(
  db: Kysely<Database>,
  spec: ListSpec,
  id: number,
  version: number,
  changes: { fields?: EntryFields; hidden?: boolean },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable(TABLES[spec.entity])
    .set({
      ...(changes.fields ? columnsOf(spec, changes.fields) : {}),
      ...(changes.hidden === undefined ? {} : { hidden: changes.hidden ? 1 : 0 }),
      version: sql<number>`version + 1`,
      updated_at: now,
    } as never)
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts a list's records in the order of `ids` (position 0, 1, …). */
export async function setPositions(
  db: Kysely<Database>,
  spec: ListSpec,
  ids: readonly number[],
): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.updateTable(TABLES[spec.entity]).set({ position }).where("id", "=", id).execute();
  }
}
