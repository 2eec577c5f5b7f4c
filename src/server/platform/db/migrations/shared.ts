/**
 * What the migrations share: one `up` for both engines, which takes from
 * `columnTypes` only the column types the engines name differently.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import type { Engine } from "../connection.ts";

// biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema does not know yet
export type AnyDb = Kysely<any>;

/** A migration's module: its `up`, told which engine it runs on. */
export interface EngineMigration {
  up(db: AnyDb, engine: Engine): Promise<void>;
}

export function columnTypes(engine: Engine) {
  const timestamp = engine === "postgres" ? "timestamptz" : "text";
  return {
    timestamp,
    withId<T extends string>(table: CreateTableBuilder<T>) {
      return engine === "postgres"
        ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
    },
    withTimestamps<T extends string>(table: CreateTableBuilder<T>) {
      return table
        .addColumn("created_at", timestamp as "text", notNull)
        .addColumn("updated_at", timestamp as "text", notNull);
    },
  } as const;
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
