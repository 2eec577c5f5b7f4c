import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { TEST_CHROMIUM_LAUNCH } from "./e2e/support/chromium.ts";
import { FIRST_OWNER } from "./e2e/support/console.ts";

const PORT = Number(process.env.E2E_PORT ?? 4173);
// Where the console's test accounts are made (e2e/support/console.ts).
process.env.E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
// The test server writes its e-mail here, and tests read it (e2e/no-js-forms.spec.ts).
// Set once in the main process; the workers it starts inherit it.
process.env.MAILBOX_DIR ??= mkdtempSync(join(tmpdir(), "e2e-mail-"));
// The server's database, new for each run; no test opens it.
process.env.E2E_SQLITE_FILE ??= join(mkdtempSync(join(tmpdir(), "e2e-")), "site.db");
// E2E_SERVER_ENTRY / E2E_STATIC_DIR let a second build be tested beside the first.
const SERVER_ENTRY = process.env.E2E_SERVER_ENTRY ?? "build/node/src/server/main.js";
const ADMIN_CLI = join(dirname(SERVER_ENTRY), "cli/admin.js");

const CHROMIUM = { ...devices["Desktop Chrome"], launchOptions: TEST_CHROMIUM_LAUNCH };
const SCREENSHOTS = /@screenshots/;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  // Two browsers, the server and its mail on two cores: a console journey
  // takes 15 to 20 s on a quiet machine and past 30 s on a busy one, which
  // says nothing about the site. Every wait inside still has its own limit.
  timeout: 60_000,
  // Hydrating a page took past 5 s on a loaded two-core machine (a run of
  // 26 minutes); every expectation still waits on the page, never on time.
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  globalSetup: "./e2e/support/global-setup.ts",
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // A trace records every action of every test to keep the failing ones'.
    // CI keeps only its log, where nobody could open a trace, and recording
    // cost over a quarter of the browser tests' time (4.9 min without, 6.8 with).
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: TEST_CHROMIUM_LAUNCH,
  },
  projects: [
    { name: "chromium", use: CHROMIUM, grepInvert: SCREENSHOTS },
    // `npm run screenshots:console`: the tests titled @screenshots write
    // docs/screenshots/admin/ from a fresh database; they are not checks.
    ...(process.env.CONSOLE_SCREENSHOTS
      ? [{ name: "console-screenshots", use: CHROMIUM, grep: SCREENSHOTS }]
      : []),
  ],
  webServer: {
    // The first owner is made as the firm makes it, before the server starts.
    command: `node ${ADMIN_CLI} create --email ${FIRST_OWNER} --name "First owner" > /dev/null && node ${SERVER_ENTRY}`,
    url: `http://127.0.0.1:${PORT}/readyz`,
    // The server logs at LOG_LEVEL=warn: nothing in a passing run, and the error
    // behind a 500 in a failing one, printed beside the test's own output.
    stdout: "pipe",
    reuseExistingServer: false,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SQLITE_FILE: process.env.E2E_SQLITE_FILE,
      // A browser on the same two cores can delay the server's event loop; the
      // 503 it would cause is tested on its own (test/platform/ops/overload.test.ts).
      MAX_EVENT_LOOP_DELAY_MS: "0",
      // Short locks, so the lock-out test sees an account recover in seconds.
      SIGN_IN_LOCK_SECONDS: "3",
      ADMIN_DIR: process.env.E2E_ADMIN_DIR ?? "build/admin",
      RATE_LIMIT_PER_MINUTE: "1000",
      // Test accounts are made as from addresses of their own (e2e/support/console.ts).
      TRUST_PROXY: "127.0.0.1",
      // Tests fill and send a form faster than a person; e2e/bot-defence.spec.ts
      // shows the honeypot, test/platform/security/bot-defence.test.ts the minimum time.
      FORM_MIN_SECONDS: "0",
      // A reader who leaves and comes back at once gets the welcome again;
      // the cooldown is shown by src/server/features/subscriptions/subscribe-cooldown.test.ts.
      SUBSCRIBE_MAIL_COOLDOWN_MINUTES: "0",
      // The audience counts reach the database each second, so the Audience
      // area shows a walk's visit while the test waits (a poll, not a sleep).
      AUDIENCE_FLUSH_SECONDS: "1",
      // Every browser of the run comes from 127.0.0.1: one address's numbers
      // would soon stop counting their views (src/server/features/audience/counting.test.ts
      // and test/features/audience/audience-flood.test.ts show them).
      AUDIENCE_VIEWS_PER_MINUTE: "10000",
      AUDIENCE_VISITORS_PER_ADDRESS: "10000",
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? "build/client",
      MAILBOX_DIR: process.env.MAILBOX_DIR,
      MEDIA_DIR: mkdtempSync(join(tmpdir(), "e2e-media-")),
    },
  },
});
