/**
 * Console accounts for browser tests, made as the firm makes them, with
 * nothing written into the running server's database: the shared test server's
 * first owner is created by `admin create` before the server starts
 * (playwright.config.ts), and its password set through the e-mailed link
 * (global-setup.ts). That owner invites every other account through the
 * console's API, and each invitation is accepted through its own link. Every
 * account is new, so tests and their repeats never share one.
 */
import { randomBytes } from "node:crypto";
import { type APIRequestContext, request } from "@playwright/test";
import { AUTH_PATHS } from "../../src/shared/admin/auth.ts";
import { PEOPLE_PATHS } from "../../src/shared/admin/people.ts";
import type { Role } from "../../src/shared/admin/roles.ts";
import { API_PATHS, serverPath } from "../../src/shared/api-paths.ts";
import { XSRF_COOKIE, XSRF_HEADER } from "../../src/shared/constants.ts";
import { waitForMail } from "./mailbox.ts";
import { expect, type Page } from "./test.ts";

export const CONSOLE_PASSWORD = "a long and memorable passphrase";
/** The shared test server's first owner (playwright.config.ts creates it). */
export const FIRST_OWNER = "first-owner@firm.example";

export interface ConsoleAccount {
  email: string;
  password: string;
  role: Role;
}

const LINK_TOKEN = /#token=([\w-]{43})/;

function baseURL(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set (playwright.config.ts sets it)");
  return url;
}

/** A console client holding the cross-site token every write needs. */
async function consoleClient(): Promise<APIRequestContext> {
  const client = await request.newContext({ baseURL: baseURL() });
  await client.get(serverPath(API_PATHS.xsrf));
  return client;
}

/**
 * A console write, counted against `address`: the test server believes
 * X-Forwarded-For from the loopback (TRUST_PROXY), so each account is invited
 * and accepted as a colleague on their own network would be, and the
 * per-address limits on invitations (20 a minute) and passwords (10 in 15
 * minutes) stay as strict as in production.
 */
async function post(
  client: APIRequestContext,
  path: string,
  data: unknown,
  address: string,
): Promise<void> {
  const { cookies } = await client.storageState();
  const token = cookies.find((cookie) => cookie.name === XSRF_COOKIE)?.value ?? "";
  const response = await client.post(path, {
    data,
    headers: { [XSRF_HEADER]: token, "X-Forwarded-For": address },
  });
  if (!response.ok()) {
    throw new Error(`POST ${path} answered ${response.status()}: ${await response.text()}`);
  }
}

/** An address from the range set aside for test networks (198.18.0.0/15), new each time. */
function freshAddress(): string {
  const [a = 0, b = 0] = randomBytes(2);
  return `198.19.${a}.${b}`;
}

/** Sets the account's password through the token its e-mail carries. */
export async function acceptLinkMailedTo(email: string, password: string): Promise<void> {
  const token = LINK_TOKEN.exec(await waitForMail(email, LINK_TOKEN))?.[1];
  const client = await consoleClient();
  try {
    await post(client, AUTH_PATHS.password, { token, password }, freshAddress());
  } finally {
    await client.dispose();
  }
}

/** This worker's session as the first owner, opened on first use. */
let firstOwner: Promise<APIRequestContext> | undefined;

function firstOwnerClient(): Promise<APIRequestContext> {
  firstOwner ??= (async () => {
    const client = await consoleClient();
    await post(
      client,
      AUTH_PATHS.session,
      { email: FIRST_OWNER, password: CONSOLE_PASSWORD },
      freshAddress(),
    );
    return client;
  })();
  return firstOwner;
}

/** A new account with a password; `label` names it, so a failing test's screenshots say whose it is. */
export async function consoleAccount(role: Role, label: string): Promise<ConsoleAccount> {
  const unique = randomBytes(4).toString("hex");
  const email = `${label}-${role}-${unique}@firm.example`.toLowerCase();
  const owner = await firstOwnerClient();
  await post(owner, PEOPLE_PATHS.people, { email, role, name: `${label} ${role}` }, freshAddress());
  await acceptLinkMailedTo(email, CONSOLE_PASSWORD);
  return { email, password: CONSOLE_PASSWORD, role };
}

/**
 * Signs in through the console's sign-in form at `path`: for the tests of
 * signing in itself, and of a journey that signs in again.
 */
export async function signInThroughForm(page: Page, account: ConsoleAccount, path = "/admin") {
  await page.goto(path);
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}

/**
 * Opens the console at `path` already signed in: the session is opened by
 * the console's own sign-in call in the page's context, so the page loads
 * once, as a colleague's browser that signed in earlier would, instead of
 * loading the sign-in form first (the form has its own tests).
 */
export async function signInToConsole(page: Page, account: ConsoleAccount, path = "/admin") {
  // A spec with a server of its own names its origin in `path`, or sets the
  // context's base address, which the context's requests start from.
  const at = (apiPath: string) =>
    URL.canParse(path) ? `${new URL(path).origin}${apiPath}` : apiPath;
  const client = page.context().request;
  await client.get(at(serverPath(API_PATHS.xsrf)));
  await post(
    client,
    at(AUTH_PATHS.session),
    { email: account.email, password: account.password },
    freshAddress(),
  );
  await page.goto(path);
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}
