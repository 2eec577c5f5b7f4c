// @vitest-environment happy-dom
/**
 * The one fetch core under both clients, against a real server as a browser
 * page calls it: the site's client fetches the cross-site token when the
 * page came without its cookie and resolves with any status; the console's
 * client signs in with that token, writes JSON, reads the plain-text preview
 * as text through PlainTextPreview, and turns a refusal into an ApiError
 * that also tells the console its session has ended.
 */
import { act, createElement } from "react";
import { expect, test, vi } from "vitest";
import { ApiError, api, sessionEnded } from "../../src/admin/api/client.ts";
import { PlainTextPreview } from "../../src/admin/screens/newsletter/PlainTextPreview.tsx";
import { NEWSLETTER_PATHS } from "../../src/shared/admin/newsletter.ts";
import { XSRF_COOKIE } from "../../src/shared/constants.ts";
import { checkUnsubscribe, fetchTeam, xsrfToken } from "../../src/web/api/client.ts";
import { createAccount, TEST_PASSWORD } from "../support/console.ts";
import { consoleDomWithServer } from "../support/console-dom.ts";
import { newsletterDraft } from "../support/newsletter.ts";

const dom = consoleDomWithServer();

const shown = () => dom.container.textContent ?? "";

test("the site's client fetches the token once and leaves each status to its caller", async () => {
  expect(document.cookie).not.toContain(`${XSRF_COOKIE}=`);
  const token = await xsrfToken();
  expect(token).not.toBe("");
  expect(document.cookie).toContain(`${XSRF_COOKIE}=`);
  expect(await xsrfToken()).toBe(token);

  const team = await fetchTeam();
  expect(team.status).toBe(200);
  expect(team.ok).toBe(true);
  expect(Array.isArray(team.data)).toBe(true);

  const unknown = await checkUnsubscribe("no-such-token");
  expect(unknown.ok).toBe(false);
  expect(unknown.status).toBeGreaterThanOrEqual(400);
  expect(typeof unknown.data?.message).toBe("string");
});

test("the console's client refuses with an ApiError and says the session ended", async () => {
  const ended = vi.fn();
  sessionEnded.addEventListener("ended", ended);
  const refusal = await api.call("newsletter.list").catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(ApiError);
  expect((refusal as ApiError).status).toBe(401);
  expect(ended).toHaveBeenCalledTimes(1);

  // The plain-text preview goes through the same client: the server's words, the same event.
  await act(async () =>
    dom.root.render(createElement(PlainTextPreview, { path: NEWSLETTER_PATHS.textPreview(1) })),
  );
  await vi.waitFor(() => expect(dom.container.querySelector(".notice-error")).not.toBeNull());
  sessionEnded.removeEventListener("ended", ended);
  expect(shown()).toBe((refusal as ApiError).message);
  expect(ended).toHaveBeenCalledTimes(2);
});

test("the console's client signs in, writes JSON and reads the plain-text preview as text", async () => {
  const account = await createAccount(dom.t.database, "editor");
  await api.call("session.signIn", { body: { email: account.email, password: TEST_PASSWORD } });
  const issue = await api.call("newsletter.create", { body: newsletterDraft("fetch-core") });
  expect(issue.title).toBe("Issue fetch-core");

  await act(async () =>
    dom.root.render(
      createElement(PlainTextPreview, {
        // A new preview, as the panel keys it, not the refused one's state.
        key: issue.id,
        path: NEWSLETTER_PATHS.textPreview(issue.id),
      }),
    ),
  );
  await vi.waitFor(() => expect(dom.container.querySelector("pre.preview-text")).not.toBeNull());
  expect(dom.container.querySelector("pre")?.textContent).toContain("fetch-core");
});
