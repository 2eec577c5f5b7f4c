/**
 * The console's "Sending health" page, for owners: the checks of the firm's
 * domain (the From's in force, from the console's mail settings or MAIL_FROM), asked of DNS on each visit (DNS_SERVERS, or the system's
 * resolver), and what came back about the mail sent, or, with no mail
 * server set, that it was only written to the mail folder.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  SENDING_HEALTH_PATH,
  SET_ASIDE_PAGE_SIZE,
  SET_ASIDE_PATH,
  sendingHealthSchema,
  setAsideListSchema,
  setAsideQuerySchema,
} from "../../../shared/admin/sending-health.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { readDkimKey } from "../../platform/outbox/dkim.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { checkDomain, type DomainSettings, dnsResolver } from "./domain-checks.ts";
import { lastThirtyDays, recentIssues } from "./sending-health-figures.ts";
import type { DeliverabilitySettings } from "./server-settings.ts";
import { listSetAside } from "./set-aside.ts";

/**
 * The domain of an address, bare or in angle brackets with a name before
 * it: what follows its last @, up to a closing bracket or a space.
 */
export function domainOf(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return "";
  const rest = address.slice(at + 1).trimEnd();
  const unbracketed = rest.endsWith(">") ? rest.slice(0, -1) : rest;
  if (unbracketed === "" || /[\s>]/.test(unbracketed)) return "";
  return unbracketed.toLowerCase();
}

/** What the checks need to know of the configuration and of the From in force. */
function domainSettings(
  config: PlatformConfig & DeliverabilitySettings,
  from: string,
): DomainSettings {
  const fromDomain = domainOf(from);
  const bounceDomain = config.BOUNCE_ADDRESS ? domainOf(config.BOUNCE_ADDRESS) : null;
  const key = readDkimKey(config);
  return {
    fromDomain,
    envelopeDomain: bounceDomain ?? fromDomain,
    bounceDomain,
    dkim: key
      ? { domain: key.domainName, selector: key.keySelector, privateKey: key.privateKey }
      : null,
  };
}

export default async function sendingHealthRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions<DeliverabilitySettings & MailDefaultSettings>,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const resolver = dnsResolver(config.DNS_SERVERS);

  routes.get(
    SENDING_HEALTH_PATH,
    { schema: { response: { 200: sendingHealthSchema } }, config: { role: "owner" } },
    async (request) => {
      // The From an owner may have changed in the console since the last visit.
      const settings = domainSettings(
        config,
        (await currentMailSettings(database.db, config)).from,
      );
      const [checks, period, issues] = await Promise.all([
        checkDomain(resolver, settings).catch((error: unknown) => {
          request.log.warn({ err: error }, "the domain's DNS records could not be read");
          return null;
        }),
        lastThirtyDays(database.db),
        recentIssues(database.db),
      ]);
      return {
        checks,
        checksUnavailable: checks
          ? null
          : "The DNS could not be asked just now, so the records are not checked. Try again in a minute.",
        mailOnlyToFolder: app.mailFolder !== null,
        lastThirtyDays: period,
        issues,
      };
    },
  );

  // What the bounce mailbox set aside: unverified reports name addresses, so owners only.
  routes.get(
    SET_ASIDE_PATH,
    {
      schema: { querystring: setAsideQuerySchema, response: { 200: setAsideListSchema } },
      config: { role: "owner" },
    },
    async (request) => {
      const { page } = request.query;
      const { items, total } = await listSetAside(database.db, page);
      return { items, total, page, pageSize: SET_ASIDE_PAGE_SIZE };
    },
  );
}
