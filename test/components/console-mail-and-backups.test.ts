// @vitest-environment happy-dom
/**
 * What the console shows of mail that only goes to the mail folder, and
 * the Backups area's buttons, rendered from answers as the server gives
 * them: the banner every screen carries (owners told the folder and what
 * to set, the others whom to tell); Sending health's first figure, which
 * says "Delivered" only when a mail server took the mail; "Back up now",
 * held while a backup runs, and a Download link for each archive the
 * backup folder holds.
 */
import { act, createElement, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, test } from "vitest";
import { MailNotSentBanner } from "../../src/admin/layout/MailNotSentBanner.tsx";
import { BackupsView } from "../../src/admin/screens/backups/BackupsScreen.tsx";
import { FiguresTable } from "../../src/admin/screens/health/FiguresTable.tsx";
import type { Backup, BackupsAnswer } from "../../src/shared/admin/backups.ts";
import { backupArchivePath } from "../../src/shared/admin/backups.ts";

let container: HTMLElement;
let root: Root;

beforeEach(() => {
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
  container = document.body.appendChild(document.createElement("div"));
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  Reflect.deleteProperty(globalThis, "IS_REACT_ACT_ENVIRONMENT");
});

async function render(node: ReactNode) {
  await act(async () => root.render(node));
}

const text = () => container.textContent ?? "";

test("the banner tells owners the folder and SMTP_URL, the others to tell an owner, and nobody when mail is sent", async () => {
  await render(
    createElement(MailNotSentBanner, { mailNotSent: { folder: "/srv/site/data/mail" } }),
  );
  expect(container.querySelector('[role="status"]')).not.toBeNull();
  expect(text()).toContain("Mail is not being sent:");
  expect(text()).toContain("every message is written to /srv/site/data/mail on the server");
  expect(text()).toContain("Set SMTP_URL");

  await render(createElement(MailNotSentBanner, { mailNotSent: { folder: null } }));
  expect(text()).toContain("Mail is not being sent:");
  expect(text()).toContain("Tell an owner of the console.");
  expect(text()).not.toContain("SMTP_URL");

  await render(createElement(MailNotSentBanner, { mailNotSent: null }));
  expect(container.innerHTML).toBe("");
});

const figures = {
  delivered: 205,
  hardBounces: 0,
  softBounces: 0,
  complaints: 0,
  hardBounceRate: 0,
  complaintRate: 0,
};
const health = (mailOnlyToFolder: boolean): Parameters<typeof FiguresTable>[0]["health"] => ({
  mailOnlyToFolder,
  lastThirtyDays: { ...figures, suppressed: 0 },
  issues: [{ ...figures, id: 1, title: "Insight 12", finishedAt: "2026-11-20T09:00:00.000Z" }],
});
const columns = () => [...container.querySelectorAll("thead th")].map((th) => th.textContent);

test("Sending health says Delivered only when a mail server took the mail", async () => {
  await render(createElement(FiguresTable, { health: health(true) }));
  expect(columns()[1]).toBe("Written to the mail folder");
  expect(text()).not.toContain("Delivered");
  expect(text()).toContain("no message has left the server");

  await render(createElement(FiguresTable, { health: health(false) }));
  expect(columns()[1]).toBe("Delivered");
  expect(text()).not.toContain("mail folder");
});

const backup = (id: number, fields: Partial<Backup>): Backup => ({
  id,
  trigger: "command",
  startedAt: "2026-11-28T09:00:00.000Z",
  finishedAt: "2026-11-28T09:01:00.000Z",
  result: "ok",
  reason: null,
  file: `backup-2026-11-28T09-0${id}-00.000Z.tar.gz`,
  size: 52_000,
  copiedTo: null,
  downloadable: true,
  ...fields,
});
const answer = (backingUp: boolean, backups: Backup[]): BackupsAnswer => ({
  schedule: { everyHours: 6, keep: 14, s3Bucket: null },
  backingUp,
  backups,
});

test("Back up now asks once, is held while a backup runs, and each kept archive has its Download", async () => {
  let asked = 0;
  const onBackUpNow = () => {
    asked += 1;
  };
  const list = [
    backup(3, { result: null, finishedAt: null, file: null, size: null, downloadable: false }),
    backup(2, {}),
    backup(1, { downloadable: false }),
  ];
  await render(createElement(BackupsView, { data: answer(false, list), onBackUpNow }));
  const button = container.querySelector<HTMLButtonElement>("button");
  expect(button?.textContent).toBe("Back up now");
  expect(button?.disabled).toBe(false);
  await act(async () => button?.click());
  expect(asked).toBe(1);

  const links = [...container.querySelectorAll<HTMLAnchorElement>("a")];
  expect(links.map((link) => link.getAttribute("href"))).toEqual([backupArchivePath(2)]);
  expect(links[0]?.textContent).toBe(`Download ${list[1]?.file}`);
  expect(text()).toContain("Removed from the folder");

  await render(createElement(BackupsView, { data: answer(true, list), onBackUpNow }));
  const held = container.querySelector<HTMLButtonElement>("button");
  expect(held?.textContent).toBe("Backing up…");
  expect(held?.disabled).toBe(true);
  expect(text()).toContain("A backup is being taken.");

  // While its own request is on its way, the button waits too.
  await render(createElement(BackupsView, { data: answer(false, list), onBackUpNow: null }));
  expect(container.querySelector<HTMLButtonElement>("button")?.disabled).toBe(true);
});
