/**
 * A console list read a page at a time: the page asked for in the address
 * (1 unless it names a usable other), and the answer's page of rows with
 * the total they are drawn from. The page's size is the server's alone.
 */
import { z } from "zod";

/** Which page of a list: a number the address may carry, the first page otherwise. */
export const pageNumberSchema = z.coerce.number().int().min(1).max(1_000_000).catch(1);

/** One page of `row`s, with how many there are in all. */
export function listPageSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    items: row.array(),
    total: z.number(),
    page: z.number(),
    pageSize: z.number(),
  });
}
