/** The site's release, as the console's footer shows it; /readyz carries the same. */
import { z } from "zod";
import { ADMIN_API } from "./auth.ts";

export const VERSION_PATH = `${ADMIN_API}/version`;

export const versionSchema = z.object({ version: z.string() });
