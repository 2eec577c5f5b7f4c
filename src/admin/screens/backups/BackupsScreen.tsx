/**
 * Backups (owner only): the schedule the server runs on and the latest
 * backups, scheduled, taken with `npm run backup` or with "Back up now",
 * each with its time, size and result, why a failed one failed, and its
 * archive to download while the backup folder still holds it. While a
 * backup asked for here is being taken, the list is read again every few
 * seconds until it is done.
 */
import { useState } from "react";
import type { Backup, BackupsAnswer } from "../../../shared/admin/backups.ts";
import { BACKUPS_LABEL, backupArchivePath } from "../../../shared/admin/backups.ts";
import { api, read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { Moment } from "../people/Moment.tsx";
import "./backups.css";

const LIST_CAPTION = "The latest backups";
const SIZE = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });
/** How often the list is read again while a backup asked for here runs. */
const WHILE_RUNNING_MS = 2_000;

function size(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1024 * 1024) return `${SIZE.format(bytes / 1024)} KB`;
  return `${SIZE.format(bytes / (1024 * 1024))} MB`;
}

function scheduleText({ everyHours, keep, s3Bucket }: BackupsAnswer["schedule"]): string {
  const copies = s3Bucket ? `, each also copied to the S3 bucket ${s3Bucket}` : "";
  if (everyHours === 0) {
    return `The server takes no backups by itself (BACKUP_EVERY_HOURS is not set); those taken here or with npm run backup are listed. The newest ${keep} are kept${copies}.`;
  }
  const every = everyHours === 1 ? "every hour" : `every ${everyHours} hours`;
  return `The server takes a backup ${every} and keeps the newest ${keep}${copies}. If one fails, every owner is mailed.`;
}

const RESULT_WORDS: Record<NonNullable<Backup["result"]> | "running", string> = {
  ok: "Completed",
  failed: "Failed",
  running: "Not finished",
};

function BackupRow({ backup }: { backup: Backup }) {
  const result = backup.result ?? "running";
  return (
    <tr>
      <td data-label="Started">
        <Moment iso={backup.startedAt} />
        <span className="backups-note">
          {backup.trigger === "scheduled" ? "On the schedule" : "Asked for by a person"}
        </span>
      </td>
      <td data-label="Result">
        <span className={`backups-result backups-result--${result}`}>{RESULT_WORDS[result]}</span>
        {backup.reason ? <span className="backups-reason">{backup.reason}</span> : null}
      </td>
      <td data-label="Size" className="backups-size">
        {size(backup.size)}
      </td>
      <td data-label="Archive" className="backups-file">
        {backup.file ?? "—"}
        {backup.copiedTo ? <span className="backups-note">Copied to {backup.copiedTo}</span> : null}
      </td>
      <td data-label="Download" className="backups-download">
        {backup.downloadable && backup.file ? (
          <a className="button" href={backupArchivePath(backup.id)} download={backup.file}>
            Download<span className="visually-hidden"> {backup.file}</span>
          </a>
        ) : backup.result === "ok" ? (
          <span className="backups-note">Removed from the folder</span>
        ) : null}
      </td>
    </tr>
  );
}

export interface BackupsViewProps {
  data: BackupsAnswer;
  /** Asks for a backup now; absent while the request is on its way. */
  onBackUpNow: (() => void) | null;
}

/** The screen once its list is read: the schedule, "Back up now" and the list. */
export function BackupsView({ data, onBackUpNow }: BackupsViewProps) {
  return (
    <>
      <div className="backups-now">
        <button
          type="button"
          className="button button-primary"
          disabled={data.backingUp || onBackUpNow === null}
          onClick={onBackUpNow ?? undefined}
        >
          {data.backingUp ? "Backing up…" : "Back up now"}
        </button>
        <p className="backups-note">
          {data.backingUp
            ? "A backup is being taken. This list shows it when it is done."
            : "Takes one archive of the database, the pictures and the mail folder, as the schedule does."}
        </p>
      </div>
      {data.backups.length === 0 ? <p>No backup has been taken yet.</p> : null}
      {data.backups.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
        <section className="table-wrap table-wrap--stacks" aria-label={LIST_CAPTION} tabIndex={0}>
          <table>
            <caption className="visually-hidden">{LIST_CAPTION}</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Result</th>
                <th scope="col">Size</th>
                <th scope="col">Archive</th>
                <th scope="col">
                  <span className="visually-hidden">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.backups.map((backup) => (
                <BackupRow key={backup.id} backup={backup} />
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}

export default function BackupsScreen() {
  const backups = useResource(read("backups.list"));
  const data = backups.data;
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  useKeptCurrent(backups.reload, data?.backingUp ? WHILE_RUNNING_MS : undefined);

  async function backUpNow() {
    setAsking(true);
    setOutcome(null);
    try {
      const { message } = await api.call("backups.takeNow");
      setOutcome({ tone: "success", text: message });
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    } finally {
      setAsking(false);
      backups.reload();
    }
  }

  return (
    <div className="backups">
      <div className="screen-head">
        <h1>{BACKUPS_LABEL}</h1>
        {data ? <p className="screen-lead">{scheduleText(data.schedule)}</p> : null}
      </div>
      {backups.error ? <Notice tone="error">{backups.error}</Notice> : null}
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
      {backups.loading && !data ? <p role="status">Loading…</p> : null}
      {data ? <BackupsView data={data} onBackUpNow={asking ? null : backUpNow} /> : null}
    </div>
  );
}
