/** The database's settings slice: PostgreSQL when a URL is given, else a SQLite file. */
import { z } from "zod";
import { path, url } from "../setting-kinds.ts";

export const databaseSettings = z
  .object({
    DATABASE_URL: url()
      .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// URL")
      .optional()
      .meta({
        description: "`postgres://…` to use PostgreSQL; unset uses SQLite.",
        comment: "PostgreSQL connection URL. When unset, the site uses the SQLite file below.",
      }),
    SQLITE_FILE: path("data/site.db").meta({
      description: "The SQLite file, when `DATABASE_URL` is unset.",
      comment: "SQLite database file (used when DATABASE_URL is unset).",
    }),
  })
  .meta({ title: "The database", description: "PostgreSQL, or SQLite when no URL is given." });
