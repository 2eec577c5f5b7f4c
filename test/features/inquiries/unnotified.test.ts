/**
 * The console's banner for inquiries the firm was not notified of, on both
 * engines: it counts the inquiries whose notification failed (here, bounced)
 * until someone opens each one (the server records the first opening), and
 * never one whose notification is waiting or was sent. Viewers may read it; strangers may not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeInquiry } from "../../../src/server/features/inquiries/index.ts";
import { INQUIRY_PATHS, inquiryPath } from "../../../src/shared/admin/inquiries.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";

describe.each(ENGINES)("inquiries not notified on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  beforeAll(async () => {
    t = await startApp(engine, {}, { withPages: false });
    await createAccount(t.database, "viewer", "unnotified-viewer@firm.example");
    viewer = await signIn(t.app, "unnotified-viewer@firm.example");
  });
  afterAll(() => t.close());

  /**
   * Stores an inquiry; a failed one's notification then bounces for good (a
   * hard bounce names it), which fails it whatever the sender is doing.
   */
  async function inquiry(notification: "failed" | "pending") {
    const id = await storeInquiry(t.app, {
      ...VALID_INQUIRY,
      comments: `${notification} ${Date.now()}`,
    });
    if (notification === "failed") {
      const { notification_outbox_id } = await t.database.db
        .selectFrom("inquiries")
        .select("notification_outbox_id")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await t.database.db
        .insertInto("delivery_reports")
        .values({
          email: "inquiries@firm.example",
          kind: "hard",
          status: "5.1.1",
          source: "mailbox",
          source_key: null,
          outbox_id: notification_outbox_id,
          message_kind: "inquiry-notification",
          issue_id: null,
          text: "550 5.1.1 User unknown",
          received_at: new Date().toISOString(),
        })
        .execute();
    }
    return id;
  }

  async function unseen(): Promise<number> {
    const response = await viewer.request("GET", INQUIRY_PATHS.unnotified);
    expect(response.statusCode).toBe(200);
    return (response.json() as { unseen: number }).unseen;
  }

  it("counts failed notifications until each inquiry is opened", async () => {
    expect(await unseen()).toBe(0);
    const first = await inquiry("failed");
    const second = await inquiry("failed");
    await inquiry("pending");
    expect(await unseen()).toBe(2);

    // The list shows which ones, without counting as opening them.
    const list = await viewer.request("GET", INQUIRY_PATHS.list);
    const notified = (list.json() as { inquiries: { id: number; notified: string }[] }).inquiries;
    expect(
      notified
        .filter((row) => row.notified === "failed")
        .map((row) => row.id)
        .sort(),
    ).toEqual([first, second].sort());
    expect(await unseen()).toBe(2);

    const opened = await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, first));
    expect(opened.json()).toMatchObject({ id: first, notified: "failed" });
    expect(await unseen()).toBe(1);
    // Opening it again changes nothing; opening the other ends the banner.
    await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, first));
    expect(await unseen()).toBe(1);
    await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, second));
    expect(await unseen()).toBe(0);
  });

  it("is not for strangers", async () => {
    const stranger = await anonymous(t.app);
    expect((await stranger.request("GET", INQUIRY_PATHS.unnotified)).statusCode).toBe(401);
  });
});
