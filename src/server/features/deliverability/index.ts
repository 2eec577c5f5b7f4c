/**
 * Deliverability: what happens to mail after the site sent it. Reports
 * (bounces and complaints) are recorded, and the addresses they condemn go
 * on the suppression list, which every other feature checks before it
 * mails anyone but the firm. What the rest of the server may use of it.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";

export default fp(
  async function deliverability(_app: FastifyInstance, _options: AdminAreaOptions) {},
  { name: "deliverability", dependencies: ["console", "outbox"] },
);

export { type NewReport, type Recorded, recordReport, type SoftBouncePolicy } from "./record.ts";
export { recordRefusals } from "./refusals.ts";
export { isSuppressed, liftSuppression, notSuppressed } from "./suppressions.ts";
