/**
 * What an entry of the console's route map holds. Each area's module declares
 * its own entries against these types, and console-routes.ts combines them;
 * they live apart from the map so that an area's module can use them without
 * importing the map that imports it.
 */
import type { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A body the server reads as multipart form data (a picture's file), with no
 * schema: the client sends the FormData it is given as it is.
 */
export const MULTIPART = "multipart";

interface EntryBase {
  method: Method;
  /** The path, or how a call's parameters make it (a record's id, a content list). */
  path: string | ((params: never) => string);
  query?: z.ZodType;
  /** The body's schema, or how a content list's spec makes it, or MULTIPART. */
  body?: z.ZodType | ((...args: never) => z.ZodType) | typeof MULTIPART;
}

/** One entry of the map: a success answers `response`, or nothing at all (204). */
export type RouteEntry = EntryBase &
  ({ status: 200 | 201 | 202; response: z.ZodType } | { status: 204; response?: never });

/** One area's entries, by the keys the console's calls name them with. */
export type RouteSlice = Record<string, RouteEntry>;

/** The parameters of a call about one record. */
export interface RecordId {
  id: number;
}
