import { POSTGRES_SKIP_REASON, POSTGRES_URL } from "./engines.ts";

if (!POSTGRES_URL) console.warn(POSTGRES_SKIP_REASON);
