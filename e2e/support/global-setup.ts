/**
 * Before any test: the shared test server's first owner, created by
 * `admin create` before the server started, sets its password through the
 * link that command e-mailed, as the firm's first owner does.
 */
import { acceptLinkMailedTo, CONSOLE_PASSWORD, FIRST_OWNER } from "./console.ts";

export default async function globalSetup() {
  await acceptLinkMailedTo(FIRST_OWNER, CONSOLE_PASSWORD);
}
