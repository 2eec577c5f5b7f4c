/**
 * The console's mail settings (owners only): read them with the
 * environment's defaults beside them, save them all at once on the version
 * loaded (409 when someone saved first), and send oneself a test mail. A
 * save and its audit entry commit together; the test mail is queued in the
 * outbox inside its own audited transaction.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  MAIL_SETTING_KEYS,
  MAIL_SETTINGS_PATHS,
  MAIL_SETTINGS_TEXTS,
  type MailSettingKey,
  type MailSettingsValues,
  mailSettingsAnswerSchema,
  mailSettingsSaveSchema,
  testMailSchema,
} from "../../../shared/admin/mail-settings.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { ConsoleUser } from "../../platform/console/users.ts";
import { enqueueMail } from "../../platform/outbox/queue.ts";
import { refuse } from "../../platform/refusal.ts";
import { saveMailSettings } from "./rows.ts";
import type { MailDefaultSettings } from "./server-settings.ts";
import {
  currentMailSettings,
  mailDefaults,
  type StoredMailSettings,
  storedMailSettings,
} from "./settings.ts";
import { TEST_MAIL_KIND, testMail } from "./test-mail.tsx";

const OWNER = { role: "owner" } as const;
const TARGET = "mail-settings";
/** A test goes to the owner's own mailbox; a few a minute are plenty to check a change. */
const TEST_MAIL_LIMIT = { max: 5, timeWindow: "1 minute" };

/** The columns each setting is stored in, to tell which ones a save changed. */
const COLUMNS_OF: Record<MailSettingKey, (keyof MailSettingsValues)[]> = {
  sender: ["senderName", "senderAddress"],
  inquiryTo: ["inquiryTo"],
  newsletterRate: ["newsletterRate"],
  doubleOptIn: ["doubleOptIn"],
  welcomeText: ["welcomeText"],
};

function changedSettings(before: MailSettingsValues, after: MailSettingsValues): MailSettingKey[] {
  return MAIL_SETTING_KEYS.filter((key) =>
    COLUMNS_OF[key].some(
      (column) => JSON.stringify(before[column]) !== JSON.stringify(after[column]),
    ),
  );
}

export default async function mailSettingsRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions<MailDefaultSettings>,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const answer = (stored: StoredMailSettings) => ({ ...stored, defaults: mailDefaults(config) });

  routes.get(
    MAIL_SETTINGS_PATHS.settings,
    { schema: { response: { 200: mailSettingsAnswerSchema } }, config: OWNER },
    async () => answer(await storedMailSettings(db)),
  );

  routes.put(
    MAIL_SETTINGS_PATHS.settings,
    {
      schema: {
        body: mailSettingsSaveSchema,
        response: { 200: mailSettingsAnswerSchema, 409: fieldRefusalSchema },
      },
      config: OWNER,
    },
    async (request) => {
      const { version, ...values } = request.body;
      const saved = await app.consoleWrite(request, "mail-settings-saved", async (trx, audit) => {
        const before = await storedMailSettings(trx);
        const written = await saveMailSettings(trx, version, values);
        if (written === null) throw refuse.conflict(MAIL_SETTINGS_TEXTS.stale);
        audit.subject = TARGET;
        audit.detail = { changed: changedSettings(before.saved, values), version: written };
        return storedMailSettings(trx);
      });
      return answer(saved);
    },
  );

  routes.post(
    MAIL_SETTINGS_PATHS.testMail,
    {
      schema: { body: testMailSchema, response: { 202: messageSchema } },
      config: { ...OWNER, rateLimit: TEST_MAIL_LIMIT },
    },
    async (request, reply) => {
      const to = (request.user as ConsoleUser).email;
      await app.consoleWrite(request, "mail-test-sent", async (trx, audit) => {
        const settings = await currentMailSettings(trx, config);
        await enqueueMail(trx, TEST_MAIL_KIND, testMail(to, settings));
        audit.subject = TARGET;
        audit.detail = { to, from: settings.from };
      });
      return reply.code(202).send({ message: MAIL_SETTINGS_TEXTS.testQueued(to) });
    },
  );
}
