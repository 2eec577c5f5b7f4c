/** The site's release, as the console's footer shows it; /readyz carries the same. */
import { z } from "zod";
import { ADMIN_API } from "./auth.ts";
import type { RouteSlice } from "./route-entry.ts";

export const VERSION_PATH = `${ADMIN_API}/version`;

export const versionSchema = z.object({ version: z.string() });

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The release the server runs, for the footer.
 */
export const VERSION_CONSOLE_ROUTES = {
  "version.read": { method: "GET", path: VERSION_PATH, status: 200, response: versionSchema },
} as const satisfies RouteSlice;
