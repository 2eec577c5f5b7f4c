/**
 * The version of a record the editor loaded: a save or a restore names it,
 * and a stale one is refused. Versions are integer columns like ids, so a
 * number beyond one is refused before any query, by row-id.ts's bound.
 */
import { z } from "zod";
import { LARGEST_ROW_ID } from "../row-id.ts";

const version = (least: number) =>
  z
    .number({ error: "is required" })
    .int("must be a whole number")
    .min(least, `must be ${least} or more`)
    .max(LARGEST_ROW_ID, "names no version");

/** A record's version: its first is 1. */
export const loadedVersionSchema = version(1);

/** A list's order's version: 0 before the list was first reordered. */
export const orderVersionSchema = version(0);
