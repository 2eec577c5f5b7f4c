/**
 * Mail settings: the sender, where inquiries go, the newsletter's rate,
 * double opt-in and the welcome's text, set by owners in the console over
 * the environment's defaults. What the rest of the server may use of this
 * feature: the settings in force, read at each use.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import mailSettingsRoutes from "./console.ts";
import type { MailDefaultSettings } from "./server-settings.ts";

export default fp(
  async function mailSettings(
    app: FastifyInstance,
    options: AdminAreaOptions<MailDefaultSettings>,
  ) {
    await app.register(mailSettingsRoutes, options);
  },
  { name: "mail-settings", dependencies: ["console", "outbox"] },
);

export type { MailDefaultSettings } from "./server-settings.ts";
export {
  currentMailSettings,
  type MailSettings,
  type MailSettingsReader,
  mailSettingsReader,
} from "./settings.ts";
