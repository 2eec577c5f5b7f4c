/**
 * A list whose order the site follows, sortable three ways: drag a row's
 * handle with the pointer; focus the handle and press Space, the arrow keys
 * and Space again (dnd-kit's keyboard sensor, announced to screen readers);
 * or press a row's Move up / Move down button. After a button moves its row,
 * the focus stays on that row's button.
 */
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import {
  type Entry,
  imageUrl,
  type ListedDraft,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import { formatMoment, subtitleOf, titleOf } from "./format.ts";

type Direction = "up" | "down";

interface SortableEntriesProps {
  spec: ListSpec;
  entries: Entry[];
  onMove(from: number, to: number): void;
  onSetHidden(entry: Entry, hidden: boolean): void;
  /** The records with a draft waiting, marked in the list. */
  drafts: readonly ListedDraft[];
}

const INSTRUCTIONS = {
  draggable:
    "To move this entry with the keyboard, press Space, then the up and down arrow keys, then Space again to drop it, or Escape to put it back.",
};

export function SortableEntries({
  spec,
  entries,
  drafts,
  onMove,
  onSetHidden,
}: SortableEntriesProps) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const list = useRef<HTMLOListElement>(null);
  /** The button to focus once a move has re-rendered the list. */
  const refocus = useRef<{ id: number; direction: Direction } | null>(null);

  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted || !list.current) return;
    refocus.current = null;
    const button = (direction: Direction) =>
      list.current?.querySelector<HTMLButtonElement>(
        `[data-entry="${wanted.id}"] [data-move="${direction}"]`,
      );
    const same = button(wanted.direction);
    // At the top or the bottom, the other button is the one still usable.
    (same && !same.disabled ? same : button(wanted.direction === "up" ? "down" : "up"))?.focus();
  });

  const nameOf = (id: string | number) => {
    const entry = entries.find((candidate) => candidate.id === Number(id));
    return entry ? `“${titleOf(spec, entry.fields)}”` : "The entry";
  };
  const positionOf = (id: string | number) =>
    `position ${entries.findIndex((entry) => entry.id === Number(id)) + 1} of ${entries.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at ${positionOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over ${positionOf(over.id)}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} dropped at ${positionOf(over.id)}.` : undefined,
    onDragCancel: ({ active }) =>
      `Moving ${nameOf(active.id)} was cancelled; it stays where it was.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = entries.findIndex((entry) => entry.id === Number(active.id));
    const to = entries.findIndex((entry) => entry.id === Number(over.id));
    onMove(from, to);
  }

  function moveByButton(index: number, direction: Direction) {
    const entry = entries[index];
    if (!entry) return;
    refocus.current = { id: entry.id, direction };
    onMove(index, direction === "up" ? index - 1 : index + 1);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
    >
      <SortableContext
        items={entries.map((entry) => entry.id)}
        strategy={verticalListSortingStrategy}
      >
        <ol
          className={spec.image ? "entries entries--pictures" : "entries"}
          ref={list}
          aria-label={`${spec.label}, in the site's order`}
        >
          {entries.map((entry, index) => (
            <SortableRow
              key={entry.id}
              spec={spec}
              entry={entry}
              first={index === 0}
              last={index === entries.length - 1}
              onMove={(direction) => moveByButton(index, direction)}
              onSetHidden={onSetHidden}
              draft={drafts.find((draft) => draft.recordId === entry.id)}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

interface SortableRowProps {
  spec: ListSpec;
  entry: Entry;
  draft: ListedDraft | undefined;
  first: boolean;
  last: boolean;
  onMove(direction: Direction): void;
  onSetHidden(entry: Entry, hidden: boolean): void;
}

function SortableRow({ spec, entry, draft, first, last, onMove, onSetHidden }: SortableRowProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: entry.id });
  const name = titleOf(spec, entry.fields);
  const picture =
    spec.image && entry.fields.imagePath ? imageUrl(spec.image, entry.fields.imagePath) : null;
  const classes = ["entry", entry.hidden ? "is-hidden" : "", isDragging ? "is-dragging" : ""];
  return (
    <li
      ref={setNodeRef}
      className={classes.filter(Boolean).join(" ")}
      data-entry={entry.id}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <button
        type="button"
        className="entry__handle"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Drag to move “${name}”`}
      >
        <svg viewBox="0 0 12 20" width="12" height="20" aria-hidden="true">
          {[4, 10, 16].flatMap((y) => [
            <circle key={`l${y}`} cx="3" cy={y} r="1.6" />,
            <circle key={`r${y}`} cx="9" cy={y} r="1.6" />,
          ])}
        </svg>
      </button>
      {spec.image ? (
        <span className={`entry__thumb entry__thumb--${spec.image}`}>
          {picture ? <img src={picture} alt="" loading="lazy" /> : null}
        </span>
      ) : null}
      <div className="entry__text">
        <p className="entry__title">
          <Link to={`/content/${spec.list}/${entry.id}`}>{name}</Link>
          {entry.hidden ? <span className="badge badge-hidden">Hidden</span> : null}
          {draft ? <DraftBadge draft={draft} /> : null}
        </p>
        <p className="entry__subtitle">{subtitleOf(spec, entry.fields)}</p>
      </div>
      <div className="entry__actions">
        <button
          type="button"
          className="button entry__move"
          data-move="up"
          disabled={first}
          onClick={() => onMove("up")}
          aria-label={`Move “${name}” up`}
          title="Move up"
        >
          <span aria-hidden="true">↑</span>
        </button>
        <button
          type="button"
          className="button entry__move"
          data-move="down"
          disabled={last}
          onClick={() => onMove("down")}
          aria-label={`Move “${name}” down`}
          title="Move down"
        >
          <span aria-hidden="true">↓</span>
        </button>
        <button
          type="button"
          className="button entry__visibility"
          onClick={() => onSetHidden(entry, !entry.hidden)}
          aria-label={entry.hidden ? `Show “${name}” on the site` : `Hide “${name}” from the site`}
        >
          {entry.hidden ? "Show" : "Hide"}
        </button>
      </div>
    </li>
  );
}

/** "Draft", or when a scheduled one goes out. */
function DraftBadge({ draft }: { draft: ListedDraft }) {
  return (
    <span className="badge badge-draft">
      {draft.publishAt ? `Draft, publishes ${formatMoment(draft.publishAt)}` : "Draft"}
    </span>
  );
}
