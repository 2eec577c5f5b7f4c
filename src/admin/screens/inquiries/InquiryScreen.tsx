/**
 * One inquiry: everything the visitor sent, a reply through the firm's own
 * mail client, and its handling. Editors and owners change its status and
 * assignee and add notes; a viewer reads the same page without the controls.
 * An owner erases what the person sent, on their request.
 */
import { type ReactNode, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import {
  INBOX_TEXTS,
  type InquiryDetail,
  inquiryIdSchema,
  replyLink,
} from "../../../shared/admin/inquiries.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { EraseDialog } from "../../components/EraseDialog.tsx";
import { LeadSourcePanel } from "../../components/LeadSourcePanel.tsx";
import { Notice } from "../../components/Notice.tsx";
import { AssigneeForm } from "./AssigneeForm.tsx";
import { INBOX_ROUTE, personName } from "./format.ts";
import type { InboxState } from "./InboxScreen.tsx";
import type { FromList } from "./InboxTable.tsx";
import { Moment } from "./Moment.tsx";
import { NoteForm } from "./NoteForm.tsx";
import { Notes } from "./Notes.tsx";
import { NotNotifiedBadge } from "./NotNotifiedBadge.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import { StatusForm } from "./StatusForm.tsx";

export function InquiryScreen() {
  const parsed = inquiryIdSchema.safeParse(useParams());
  const from = useLocation().state as Partial<FromList> | null;
  const back = `${INBOX_ROUTE}${from?.listSearch ? `?${from.listSearch}` : ""}`;
  const id = parsed.success ? parsed.data.id : null;
  const { data, error } = useResource(
    id === null ? null : read("inquiries.read", { params: { id } }),
  );
  // The answer to the last change is the inquiry as it is now.
  const [changed, setChanged] = useState<InquiryDetail | null>(null);
  const inquiry = changed?.id === id ? changed : data;

  return (
    <>
      <p className="inquiry-back">
        <Link to={back}>
          <span aria-hidden="true">← </span>All inquiries
        </Link>
      </p>
      {id === null ? <Notice tone="error">{INBOX_TEXTS.notFound}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {inquiry ? (
        <InquiryView inquiry={inquiry} onSaved={setChanged} />
      ) : id !== null && !error ? (
        <p className="loading" role="status">
          Loading the inquiry…
        </p>
      ) : null}
    </>
  );
}

function InquiryView({
  inquiry,
  onSaved,
}: {
  inquiry: InquiryDetail;
  onSaved(inquiry: InquiryDetail): void;
}) {
  const { role } = useMe();
  const handles = hasRole(role, "editor");
  const people = useResource(handles ? read("inquiries.assignees") : null);
  const name = `${inquiry.firstName} ${inquiry.lastName}`;

  return (
    <>
      <div className="screen-head inquiry-head">
        <div>
          <h1>{name}</h1>
          <p className="inquiry-sub">
            <StatusBadge status={inquiry.status} /> <NotNotifiedBadge notified={inquiry.notified} />{" "}
            {inquiry.inquiryType} · received <Moment iso={inquiry.receivedAt} />
          </p>
        </div>
        <a className="button button-primary" href={replyLink(inquiry)}>
          Reply by e-mail
        </a>
      </div>

      <div className="inquiry-layout">
        <section className="panel inquiry-message" aria-labelledby="inquiry-message">
          <h2 id="inquiry-message">What they sent</h2>
          <dl className="inquiry-fields">
            <Entry term="Name">{name}</Entry>
            <Entry term="Company">{inquiry.company || "Not given"}</Entry>
            <Entry term="Job title">{inquiry.jobTitle || "Not given"}</Entry>
            <Entry term="E-mail">{inquiry.email}</Entry>
            <Entry term="Phone">
              <a href={`tel:${inquiry.phoneNumber.replace(/[^\d+]/g, "")}`}>
                {inquiry.phoneNumber}
              </a>
            </Entry>
            <Entry term="Inquiry type">{inquiry.inquiryType}</Entry>
            <Entry term="Received">
              <Moment iso={inquiry.receivedAt} />
            </Entry>
          </dl>
          <h3>Comments</h3>
          <p className="inquiry-comments">{inquiry.comments}</p>
        </section>

        <section className="panel inquiry-handling" aria-labelledby="inquiry-handling">
          <h2 id="inquiry-handling">Handling</h2>
          {handles ? (
            <>
              <StatusForm key={`status-${inquiry.id}`} inquiry={inquiry} onSaved={onSaved} />
              {people.error ? <Notice tone="error">{people.error}</Notice> : null}
              {people.data ? (
                <AssigneeForm
                  key={`assignee-${inquiry.id}`}
                  inquiry={inquiry}
                  people={people.data.people}
                  onSaved={onSaved}
                />
              ) : null}
            </>
          ) : (
            <>
              <dl className="inquiry-fields">
                <Entry term="Status">
                  <StatusBadge status={inquiry.status} />
                </Entry>
                <Entry term="Assigned to">
                  {inquiry.assignee ? personName(inquiry.assignee) : "Nobody"}
                </Entry>
              </dl>
              <p className="field-hint">
                Your role reads inquiries; an editor or owner changes their status and assignee and
                adds notes.
              </p>
            </>
          )}
        </section>

        <LeadSourcePanel source={inquiry.source} id="inquiry-source" />

        <section className="panel inquiry-notes" aria-labelledby="inquiry-notes">
          <h2 id="inquiry-notes">Internal notes</h2>
          <Notes notes={inquiry.notes} />
          {handles ? (
            <NoteForm key={`note-${inquiry.id}`} inquiry={inquiry} onSaved={onSaved} />
          ) : null}
        </section>

        {hasRole(role, "owner") ? <EraseRequest inquiry={inquiry} /> : null}
      </div>
    </>
  );
}

/** Erasing what the person sent, everything from their address, after they asked. */
function EraseRequest({ inquiry }: { inquiry: InquiryDetail }) {
  const [erasing, setErasing] = useState(false);
  const navigate = useNavigate();

  async function erase(values: { email: string }) {
    const erased = await api.call("inquiries.erase", {
      params: { id: inquiry.id },
      body: values,
    });
    const state: InboxState = { notice: INBOX_TEXTS.erased(inquiry.email, erased.inquiries) };
    navigate(INBOX_ROUTE, { state });
  }

  return (
    <section className="panel request-actions" aria-labelledby="inquiry-request">
      <h2 id="inquiry-request">On the person's request</h2>
      <div className="request-action">
        <p>
          Deletes every inquiry from this address, their notes, and the e-mails the site sent about
          them.
        </p>
        <button type="button" className="button button-danger" onClick={() => setErasing(true)}>
          Erase what they sent…
        </button>
        <EraseDialog
          open={erasing}
          title="Erase everything this person sent?"
          email={inquiry.email}
          erase={erase}
          onClose={() => setErasing(false)}
        >
          <p>
            Every inquiry sent from this address, with its notes, and the firm's notifications and
            the acknowledgements the site sent about them, queued or sent, are deleted. This cannot
            be undone.
          </p>
          <p>Copies already in people's own mailboxes are not reached: delete those by hand.</p>
        </EraseDialog>
      </div>
    </section>
  );
}

function Entry({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
