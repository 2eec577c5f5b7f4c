/**
 * Subscribers → Import, for owners: choose a CSV export, see the format it
 * was recognised as (or say which column holds the addresses), see its first
 * rows, state where and when these people gave their consent, choose whether
 * they must confirm by e-mail, check the file (a dry run that writes
 * nothing and lists every row it would refuse), then import. Nothing typed
 * is lost on a refusal: the file stays chosen and every field keeps its
 * value, the server's reasons shown next to the fields they are about.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { createColumnHelper } from "@tanstack/react-table";
import { useEffect, useMemo, useState } from "react";
import { type UseFormRegister, useForm } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import {
  COLUMN_ROLE_LABELS,
  type ColumnRole,
  EARLIEST_CONSENT_DAY,
  FORMAT_LABELS,
  IMPORT_LIMITS,
  IMPORT_TEXTS,
  type ImportMapping,
  type ImportPreview,
  type ImportReport,
  type ImportResult,
  importRunQuerySchema,
  OUTCOME_LABELS,
  ROW_OUTCOMES,
  type RowReport,
} from "../../../shared/admin/subscriber-import.ts";
import { api } from "../../api/client.ts";
import { failureText, showRefusal } from "../../api/refusal.ts";
import { DataTable } from "../../components/DataTable.tsx";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { Notice } from "../../components/Notice.tsx";

/** Rows of the report shown on the screen; the download holds them all. */
const SHOWN_ROWS = 500;

const column = createColumnHelper<RowReport>();
const REPORT_COLUMNS = [
  column.accessor("row", { header: "Row" }),
  column.accessor("address", { header: "Address", cell: (cell) => cell.getValue() || "(empty)" }),
  column.accessor("reason", { header: "Why", enableSorting: false }),
];

/** The importer's own calendar day, YYYY-MM-DD, as a date input writes it. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The import's query as the form holds it (no column chosen is an empty
 * choice), checked by the server's schema. The address's column is asked
 * for only of a file of no known format, and the consent's day is held to
 * the importer's own today, which the date field offers as its latest.
 */
function formSchema(needsColumn: boolean) {
  return importRunQuerySchema.extend({
    emailColumn: needsColumn ? z.string().min(1, IMPORT_TEXTS.chooseEmailColumn) : z.string(),
    dateColumn: z.string(),
    consentDate: importRunQuerySchema.shape.consentDate.refine((day) => day <= today(), {
      message: IMPORT_TEXTS.dateInFuture,
    }),
  });
}

type ImportForm = z.input<ReturnType<typeof formSchema>>;

const NO_ANSWERS: ImportForm = {
  emailColumn: "",
  dateColumn: "",
  consentSource: "",
  consentDate: "",
  doubleOptIn: "false",
};

/** The fields a refusal of the server may name. */
const REFUSED_FIELDS = ["consentSource", "consentDate", "emailColumn"] as const;

function formOf(file: File): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  return form;
}

const count = (n: number) => n.toLocaleString("en");

export function ImportScreen() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<"reading" | "checking" | "importing" | null>(null);
  const needsColumn = preview?.format === "other";
  const schema = useMemo(() => formSchema(needsColumn), [needsColumn]);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    trigger,
    watch,
    formState: { errors },
  } = useForm<ImportForm>({ resolver: zodResolver(schema), defaultValues: NO_ANSWERS });
  const emailColumn = watch("emailColumn");
  const dateColumn = watch("dateColumn");
  const doubleOptIn = watch("doubleOptIn") === "true";
  /** The file's column of each row's own consent date, if it has one. */
  const rowDates = needsColumn ? dateColumn : preview?.dateColumn;

  /** The columns as the server will read them: a known export's own, else the importer's choice. */
  const chosen: ImportMapping = useMemo(
    () =>
      needsColumn
        ? {
            ...(emailColumn ? { emailColumn } : {}),
            ...(dateColumn ? { dateColumn } : {}),
          }
        : {},
    [needsColumn, emailColumn, dateColumn],
  );

  // A dry run answers for one file and one mapping: another makes it stale.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the report is cleared whenever the file or the columns change
  useEffect(() => setReport(null), [file, chosen]);

  async function choose(next: File | null) {
    setFile(next);
    setPreview(null);
    setResult(null);
    setFailure(null);
    clearErrors();
    if (!next) return;
    if (next.size > IMPORT_LIMITS.maxMegabytes * 1024 * 1024) {
      setError("root.file", { message: IMPORT_TEXTS.tooLarge });
      return;
    }
    setBusy("reading");
    try {
      const answer = await api.call("subscribers.importPreview", {
        query: {},
        body: formOf(next),
      });
      setPreview(answer);
      setValue("emailColumn", answer.emailColumn ?? "");
      setValue("dateColumn", answer.dateColumn ?? "");
    } catch (error) {
      setError("root.file", { message: failureText(error) });
    } finally {
      setBusy(null);
    }
  }

  /** A refusal's reasons next to their fields; anything else by the buttons. */
  function refused(error: unknown) {
    setFailure(showRefusal(error, setError, REFUSED_FIELDS));
  }

  async function dryRun() {
    if (!file) return;
    clearErrors();
    if (!(await trigger(["emailColumn", "dateColumn"]))) return;
    setBusy("checking");
    setFailure(null);
    setResult(null);
    try {
      setReport(await api.call("subscribers.importDryRun", { query: chosen, body: formOf(file) }));
    } catch (error) {
      refused(error);
    } finally {
      setBusy(null);
    }
  }

  const runImport = handleSubmit(async ({ consentSource, consentDate }) => {
    if (!file) return;
    setBusy("importing");
    setFailure(null);
    try {
      const answer = await api.call("subscribers.import", {
        query: {
          ...chosen,
          consentSource,
          consentDate,
          doubleOptIn: doubleOptIn ? "true" : "false",
        },
        body: formOf(file),
      });
      setResult(answer);
      setReport(null);
    } catch (error) {
      refused(error);
    } finally {
      setBusy(null);
    }
  });

  return (
    <div className="subscriber-import">
      <p className="back-link">
        <Link to="..">← All subscribers</Link>
      </p>
      <div className="screen-head">
        <h1>Import subscribers</h1>
      </div>
      <p className="import-lead">
        Bring a list from Mailchimp, Substack, Ghost or any CSV file. Check it first: nothing is
        added until you import, and an import is added whole or not at all.
      </p>

      {result ? <ImportDone result={result} /> : null}

      <form className="import-form" onSubmit={runImport} noValidate>
        <section className="panel import-step" aria-labelledby="import-file">
          <h2 id="import-file">
            <span className="import-step__number" aria-hidden="true">
              1
            </span>
            The file
          </h2>
          <FieldFrame
            label="CSV file"
            hint={`An export in UTF-8, up to ${IMPORT_LIMITS.maxMegabytes} MB and ${count(IMPORT_LIMITS.maxRows)} rows.`}
            error={errors.root?.file?.message}
          >
            {(control) => (
              <input
                {...control}
                type="file"
                name="file"
                accept=".csv,text/csv"
                onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
              />
            )}
          </FieldFrame>
          {busy === "reading" ? (
            <p className="loading-inline" role="status">
              Reading the file…
            </p>
          ) : null}
          {preview ? (
            <FilePreview
              preview={preview}
              emailColumn={emailColumn}
              dateColumn={dateColumn}
              register={register}
              emailError={errors.emailColumn?.message}
            />
          ) : null}
        </section>

        <section className="panel import-step" aria-labelledby="import-consent">
          <h2 id="import-consent">
            <span className="import-step__number" aria-hidden="true">
              2
            </span>
            Consent statement
          </h2>
          <p className="field-hint">
            Kept in every imported address's consent history: where these people agreed to receive
            Insight, and when.
          </p>
          <div className="import-pair">
            <Field
              label="Where the consent came from"
              hint="For example: the sign-up form of our Mailchimp list, 2019–2024."
              maxLength={IMPORT_LIMITS.sourceMaxLength}
              error={errors.consentSource?.message}
              {...register("consentSource")}
              required
            />
            <Field
              label={
                rowDates ? "Date of the consent, for rows without their own" : "Date of the consent"
              }
              hint={
                rowDates
                  ? `Each row's own date is read from “${rowDates}” and shown as the day it subscribed; this one is kept for the rows that have none.`
                  : "The day it was given, or the export's day for a list gathered over time."
              }
              type="date"
              min={EARLIEST_CONSENT_DAY}
              max={today()}
              error={errors.consentDate?.message}
              {...register("consentDate")}
              required
            />
          </div>
        </section>

        <section className="panel import-step" aria-labelledby="import-confirm">
          <h2 id="import-confirm">
            <span className="import-step__number" aria-hidden="true">
              3
            </span>
            Confirmation
          </h2>
          <fieldset className="import-choice">
            <legend className="visually-hidden">Must the imported addresses confirm?</legend>
            <label className="import-option">
              <input type="radio" value="false" {...register("doubleOptIn")} />
              <span>
                <strong>Active at once</strong>
                <span className="field-hint">
                  They get the next issue. No e-mail is sent now, not even a welcome.
                </span>
              </span>
            </label>
            <label className="import-option">
              <input type="radio" value="true" {...register("doubleOptIn")} />
              <span>
                <strong>Must confirm by e-mail (double opt-in)</strong>
                <span className="field-hint">
                  Each address gets a confirmation link and waits for it; those who do not confirm
                  are dropped.
                  {report
                    ? ` This queues ${count(report.added)} confirmation e-mail${report.added === 1 ? "" : "s"}, sent at the pace set for newsletters.`
                    : " One e-mail per address is queued, sent at the pace set for newsletters."}
                </span>
              </span>
            </label>
          </fieldset>
        </section>

        {failure ? <Notice tone="error">{failure}</Notice> : null}
        <div className="import-actions">
          <button
            type="button"
            className="button"
            onClick={dryRun}
            disabled={!file || !preview || busy !== null}
          >
            {busy === "checking" ? "Checking…" : "Check the file"}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={!report || busy !== null}
          >
            {busy === "importing"
              ? "Importing…"
              : report
                ? `Import ${count(report.added)} address${report.added === 1 ? "" : "es"}`
                : "Import"}
          </button>
          {!report && preview ? (
            <p className="field-hint">
              Check the file first: the import adds what the check shows.
            </p>
          ) : null}
        </div>
      </form>

      {report ? <DryRunReport report={report} /> : null}
    </div>
  );
}

/**
 * What a column becomes with the columns chosen now: a file of no known
 * format's address and date are the importer's choice, so a column the
 * preview guessed for one of them and that is not chosen is kept as a field.
 */
function roleNow(
  preview: ImportPreview,
  index: number,
  chosen: { emailColumn: string; dateColumn: string },
): ColumnRole {
  const role = preview.roles[index] ?? "skip";
  if (preview.format !== "other") return role;
  const name = preview.columns[index];
  if (name === chosen.emailColumn) return "email";
  if (name === chosen.dateColumn) return "date";
  return role === "email" || role === "date" ? "field" : role;
}

/**
 * What the import makes of every column: those it keeps in a table, those
 * it leaves out named together under their reason.
 */
function ColumnRoles({
  preview,
  chosen,
}: {
  preview: ImportPreview;
  chosen: { emailColumn: string; dateColumn: string };
}) {
  const kept: { index: number; name: string; role: ColumnRole }[] = [];
  const leftOut = new Map<string, string[]>();
  preview.columns.forEach((name, index) => {
    const role = roleNow(preview, index, chosen);
    if (role !== "skip") kept.push({ index, name, role });
    else {
      const why = preview.skipped[name] ?? "";
      leftOut.set(why, [...(leftOut.get(why) ?? []), name || "(no name)"]);
    }
  });
  return (
    <section
      className="table-wrap import-roles"
      aria-labelledby="import-roles-title"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
      tabIndex={0}
    >
      <h3 id="import-roles-title">What each column becomes</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Becomes</th>
          </tr>
        </thead>
        <tbody>
          {kept.map(({ index, name, role }) => (
            <tr key={index}>
              <th scope="row">{name || "(no name)"}</th>
              <td>{COLUMN_ROLE_LABELS[role]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {leftOut.size > 0 ? (
        <ul className="import-roles__left">
          {[...leftOut].map(([why, names]) => (
            <li key={why}>
              <strong>{COLUMN_ROLE_LABELS.skip}:</strong> {names.join(", ")}.{" "}
              <span className="import-roles__why">{why}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function FilePreview({
  preview,
  emailColumn,
  dateColumn,
  register,
  emailError,
}: {
  preview: ImportPreview;
  /** The column chosen for the addresses, highlighted in the rows. */
  emailColumn: string;
  dateColumn: string;
  register: UseFormRegister<ImportForm>;
  emailError: string | undefined;
}) {
  return (
    <div className="import-preview">
      <p className="import-format" role="status">
        <span className="import-format__badge">{FORMAT_LABELS[preview.format]}</span>{" "}
        {count(preview.totalRows)} row{preview.totalRows === 1 ? "" : "s"} below the header.
        {preview.format === "other"
          ? " Say which column holds the addresses."
          : ` Addresses from “${preview.emailColumn}”${preview.dateColumn ? `, consent dates from “${preview.dateColumn}”` : ""}.`}
      </p>
      {preview.format === "other" ? (
        <div className="import-pair">
          <FieldFrame label="Column of the e-mail address" error={emailError}>
            {(control) => (
              <select {...control} {...register("emailColumn")}>
                <option value="">Choose a column</option>
                {preview.columns.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </FieldFrame>
          <FieldFrame
            label="Column of the consent date (optional)"
            hint="Without one, every address gets the statement's date."
          >
            {(control) => (
              <select {...control} {...register("dateColumn")}>
                <option value="">None</option>
                {preview.columns.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </FieldFrame>
        </div>
      ) : null}
      <ColumnRoles preview={preview} chosen={{ emailColumn, dateColumn }} />
      {/* A file wider or longer than the screen scrolls inside this region, which the keyboard can reach. */}
      <section
        className="table-wrap import-preview__table"
        aria-label="The file's first rows, as read"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
        tabIndex={0}
      >
        <table>
          <caption className="visually-hidden">The file's first rows, as read</caption>
          <thead>
            <tr>
              {preview.columns.map((name, index) => (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: a file may name two columns alike
                  key={index}
                  scope="col"
                  className={
                    name === emailColumn || name === preview.emailColumn
                      ? "import-preview__chosen"
                      : undefined
                  }
                >
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((cells, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows as read, in file order
              <tr key={row}>
                {preview.columns.map((_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells in the header's order
                  <td key={index}>{cells[index] ?? ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function Tiles({ report, done }: { report: ImportReport; done: boolean }) {
  return (
    <dl className="stat-tiles import-tiles">
      <div className="stat-tile">
        <dt>{done ? "Added" : "To add"}</dt>
        <dd>{count(report.added)}</dd>
      </div>
      <div className="stat-tile">
        <dt>Already on the list</dt>
        <dd>{count(report.alreadyOnList)}</dd>
      </div>
      <div className="stat-tile">
        <dt>Refused</dt>
        <dd>{count(report.refused)}</dd>
      </div>
    </dl>
  );
}

/** The report's rows as a CSV file to download (the server wrote the text). */
function ReportDownload({ csv }: { csv: string }) {
  const href = useMemo(
    () => URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" })),
    [csv],
  );
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <a className="button" href={href} download="import-report.csv">
      Download the report (CSV)
    </a>
  );
}

function Reasons({ report }: { report: ImportReport }) {
  const lines = ROW_OUTCOMES.filter((outcome) => report.counts[outcome] > 0);
  if (lines.length === 0) return null;
  return (
    <ul className="import-reasons">
      {lines.map((outcome) => (
        <li key={outcome}>
          <span className="import-reasons__count">{count(report.counts[outcome])}</span>{" "}
          {OUTCOME_LABELS[outcome]}
        </li>
      ))}
    </ul>
  );
}

function RowsTable({ report }: { report: ImportReport }) {
  if (report.rows.length === 0) return <p>Every row can be added.</p>;
  return (
    <>
      <DataTable
        caption="Rows not added, in file order"
        rows={report.rows.slice(0, SHOWN_ROWS)}
        columns={REPORT_COLUMNS}
        empty="Every row can be added."
        stacks
      />
      {report.rows.length > SHOWN_ROWS ? (
        <p className="field-hint">
          The first {count(SHOWN_ROWS)} of {count(report.rows.length)} rows; the report holds them
          all.
        </p>
      ) : null}
    </>
  );
}

function DryRunReport({ report }: { report: ImportReport }) {
  return (
    <section className="panel import-report" aria-labelledby="import-report">
      <div className="import-report__head">
        <h2 id="import-report">What the import would do</h2>
        {report.rows.length ? <ReportDownload csv={report.csv} /> : null}
      </div>
      <p role="status">Checked {count(report.totalRows)} rows. Nothing has been added yet.</p>
      <Tiles report={report} done={false} />
      <Reasons report={report} />
      <RowsTable report={report} />
    </section>
  );
}

function ImportDone({ result }: { result: ImportResult }) {
  return (
    <section className="panel import-report import-done" aria-labelledby="import-done">
      <div className="import-report__head">
        <h2 id="import-done">Import done</h2>
        {result.rows.length ? <ReportDownload csv={result.csv} /> : null}
      </div>
      <Notice tone="success">
        {result.message}{" "}
        {result.doubleOptIn
          ? "Each was sent a confirmation link and waits for it."
          : "They are active and were sent nothing."}
      </Notice>
      <Tiles report={result} done />
      <Reasons report={result} />
      <p>
        <Link to="..">See the subscribers</Link>
      </p>
    </section>
  );
}
