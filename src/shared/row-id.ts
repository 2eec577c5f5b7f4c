/**
 * The id of a row, as a path or a token names it. Ids are integer columns:
 * PostgreSQL fails the whole query for a number beyond them (a 500) where
 * SQLite simply finds no row, so a larger number is refused before any query.
 */
import { z } from "zod";

/** The largest value of an integer column (PostgreSQL's `integer`). */
export const LARGEST_ROW_ID = 2_147_483_647;

/** An id as a JSON body's number carries it. */
export const rowNumberSchema = z
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be 1 or more")
  .max(LARGEST_ROW_ID, "names no record");

/**
 * An id as a path or a token carries it too, in digits only: Number() would
 * also read `0x10` as 16 and `1e3` as 1000, so one row would answer to many
 * spellings of its id.
 */
export const rowIdSchema = z
  .union([z.number(), z.string().regex(/^\d+$/, "must be a whole number").transform(Number)])
  .pipe(rowNumberSchema);

/** A path's `:id` parameter. */
export const idParamsSchema = z.object({ id: rowIdSchema });
