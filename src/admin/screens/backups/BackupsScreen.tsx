/**
 * Backups (owner only): the schedule the server runs on and the latest
 * backups, scheduled or taken with `npm run backup`, each with its time,
 * size and result, and why a failed one failed.
 */
import type { Backup, BackupsAnswer } from "../../../shared/admin/backups.ts";
import { BACKUPS_LABEL } from "../../../shared/admin/backups.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/useResource.ts";
import { Notice } from "../../components/Notice.tsx";
import { Moment } from "../people/Moment.tsx";
import "./backups.css";

const LIST_CAPTION = "The latest backups";
const SIZE = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });

function size(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1024 * 1024) return `${SIZE.format(bytes / 1024)} KB`;
  return `${SIZE.format(bytes / (1024 * 1024))} MB`;
}

function scheduleText({ everyHours, keep, s3Bucket }: BackupsAnswer["schedule"]): string {
  const copies = s3Bucket ? `, each also copied to the S3 bucket ${s3Bucket}` : "";
  if (everyHours === 0) {
    return `The server takes no backups by itself (BACKUP_EVERY_HOURS is not set); those taken with npm run backup are listed here. The newest ${keep} are kept${copies}.`;
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
          {backup.trigger === "scheduled" ? "On the schedule" : "By the command"}
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
    </tr>
  );
}

export default function BackupsScreen() {
  const backups = useResource(read("backups.list"));
  const data = backups.data;
  return (
    <div className="backups">
      <div className="screen-head">
        <h1>{BACKUPS_LABEL}</h1>
        {data ? <p className="screen-lead">{scheduleText(data.schedule)}</p> : null}
      </div>
      {backups.error ? <Notice tone="error">{backups.error}</Notice> : null}
      {backups.loading && !data ? <p role="status">Loading…</p> : null}
      {data && data.backups.length === 0 ? <p>No backup has been taken yet.</p> : null}
      {data && data.backups.length > 0 ? (
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
    </div>
  );
}
