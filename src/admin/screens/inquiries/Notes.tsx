/** An inquiry's internal notes, oldest first: who wrote each, when, and what. */
import type { NoteView } from "../../../shared/admin/inquiries.ts";
import { Moment } from "./Moment.tsx";

export function Notes({ notes }: { notes: NoteView[] }) {
  if (notes.length === 0) return <p className="inquiry-none">No notes yet.</p>;
  return (
    <ol className="inquiry-note-list">
      {notes.map((note) => (
        <li key={note.id}>
          <p className="inquiry-note-meta">
            <strong>{note.author}</strong> · <Moment iso={note.createdAt} />
          </p>
          <p className="inquiry-note-body">{note.body}</p>
        </li>
      ))}
    </ol>
  );
}
