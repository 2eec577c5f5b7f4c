/**
 * A page's content lists. The server renders a page with its lists from the
 * database (the route's `loader`); when the visitor then moves to another
 * page in the browser, its `clientLoader` asks the API with the answer
 * handling every list shares: a 200 fills a list, any other status leaves it
 * empty silently, and a failed request leaves it empty and is reported, so
 * the page shows "Something went wrong!".
 */
import type { ApiResponse } from "./client.ts";

export interface ContentLists<T> {
  lists: T;
  /** A request failed (network error): the page shows the failure dialog. */
  failed: boolean;
}

type Requests<T> = { [K in keyof T]: () => Promise<ApiResponse<T[K]>> };

/** The lists as the server read them. */
export function servedLists<T>(lists: T): ContentLists<T> {
  return { lists, failed: false };
}

/** Asks the API for each list at once. */
export async function fetchLists<T extends Record<string, unknown[]>>(
  requests: Requests<T>,
): Promise<ContentLists<T>> {
  let failed = false;
  const entries = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      try {
        const response = await (request as () => Promise<ApiResponse<unknown>>)();
        const ok = response.status === 200 && Array.isArray(response.data);
        return [key, ok ? response.data : []] as const;
      } catch {
        failed = true;
        return [key, []] as const;
      }
    }),
  );
  return { lists: Object.fromEntries(entries) as T, failed };
}
