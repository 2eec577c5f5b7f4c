/**
 * The server's settings, composed: the platform's slices and each
 * feature's, joined into one schema and one `Config`. Every entry reads
 * them with `processConfig`; the settings reference (the table in
 * docs/operations/configuration.md and .env.example) is generated from the
 * same slices (`npm run docs:settings`). Each feature's slice is imported
 * from its `server-settings.ts`, not its index.ts: a slice imports only
 * zod, src/shared and the platform's kinds of value, so reading the
 * settings loads no feature (a command that only reads the database starts
 * without the mail builder, React and the rest).
 */
import type { z } from "zod";
import { audienceSettings } from "./features/audience/server-settings.ts";
import { backupsSettings } from "./features/backups/server-settings.ts";
import { contentSettings } from "./features/content/server-settings.ts";
import { deliverabilitySettings } from "./features/deliverability/server-settings.ts";
import { inquiriesSettings } from "./features/inquiries/server-settings.ts";
import { mailDefaultSettings } from "./features/mail-settings/server-settings.ts";
import { newsletterSettings } from "./features/newsletter/server-settings.ts";
import { peopleSettings } from "./features/people/server-settings.ts";
import { subscriptionsSettings } from "./features/subscriptions/server-settings.ts";
import { turnedAwaySettings } from "./features/turned-away/server-settings.ts";
import { webhooksSettings } from "./features/webhooks/server-settings.ts";
import { readEnvFile, settingsLoader } from "./platform/config.ts";
import { composeSettings } from "./platform/server-settings.ts";

/** Each feature's slice, in the order the app registers the features. */
export const FEATURE_SLICES = [
  mailDefaultSettings,
  contentSettings,
  webhooksSettings,
  inquiriesSettings,
  subscriptionsSettings,
  turnedAwaySettings,
  newsletterSettings,
  deliverabilitySettings,
  peopleSettings,
  backupsSettings,
  audienceSettings,
] as const;

const settings = composeSettings(FEATURE_SLICES);

export type Config = z.output<typeof settings>;

const loader = settingsLoader(settings);

/** Every variable the server reads (the compose file's test checks its settings against them). */
export const KNOWN_NAMES = loader.known;

/**
 * Reads the configuration from an environment; empty values count as unset.
 * A near miss of one of our names stops it, naming the one likely meant.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loader.load(env);
}

/** This process's configuration: its environment, with what the env file adds (`readEnvFile`). */
export function processConfig(): Config {
  readEnvFile(process.env);
  return loadConfig(process.env);
}
