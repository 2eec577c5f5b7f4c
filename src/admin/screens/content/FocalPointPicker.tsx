/**
 * Before a picture is cropped to the site's frame (a card's 4:3, a
 * portrait's 4:5), the editor says what matters in it: a click on the picture,
 * or the two sliders, put the focal point there, and beside it the frame
 * shows exactly what the site will keep (the server crops as CSS's
 * object-position places, platform/media/images.ts). Nothing is uploaded
 * until the editor says so.
 */
import { type MouseEvent, useEffect, useId, useRef, useState } from "react";
import type { FocalPoint } from "../../../shared/admin/content.ts";

interface FocalPointPickerProps {
  file: File;
  frame: { width: number; height: number };
  /** What the picture is for, in words: "picture", "portrait". */
  label: string;
  busy: boolean;
  onUpload(focus: FocalPoint): void;
  onCancel(): void;
  /** The browser cannot show the file: the server says why it is refused. */
  onUnreadable(): void;
}

const AXES = [
  { axis: "x", word: "across" },
  { axis: "y", word: "down" },
] as const;

const percentOf = (offset: number, size: number) =>
  Math.min(100, Math.max(0, Math.round((offset / size) * 100)));

export function FocalPointPicker({
  file,
  frame,
  label,
  busy,
  onUpload,
  onCancel,
  onUnreadable,
}: FocalPointPickerProps) {
  const [focus, setFocus] = useState<FocalPoint>({ x: 50, y: 50 });
  const [source, setSource] = useState<string | null>(null);
  const unreadable = useRef(onUnreadable);
  unreadable.current = onUnreadable;
  const id = useId();

  // The chosen file, read into a data: address (the console's policy allows
  // pictures from itself and data:, not blob:).
  useEffect(() => {
    const reader = new FileReader();
    reader.onload = () => setSource(typeof reader.result === "string" ? reader.result : null);
    reader.onerror = () => unreadable.current();
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);

  function pointAt(event: MouseEvent<HTMLImageElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    setFocus({
      x: percentOf(event.clientX - box.left, box.width),
      y: percentOf(event.clientY - box.top, box.height),
    });
  }

  const position = `${focus.x}% ${focus.y}%`;
  return (
    <fieldset className="focal-point" aria-describedby={`${id}-hint`}>
      <legend>Choose what the {label} keeps</legend>
      <p id={`${id}-hint`} className="field-hint">
        The site shows it cropped to {frame.width} × {frame.height} pixels. Click the part that
        matters most, or move the sliders; “What the site shows” is what is kept.
      </p>
      <div className="focal-point__views">
        <div className="focal-point__whole-slot">
          <div className="focal-point__whole">
            {source ? (
              // biome-ignore lint/a11y: a pointer shortcut; the sliders below do the same from the keyboard
              <img
                src={source}
                alt={`The ${label} you chose, ${file.name}`}
                onClick={pointAt}
                onError={onUnreadable}
              />
            ) : null}
            <span
              className="focal-point__marker"
              style={{ left: `${focus.x}%`, top: `${focus.y}%` }}
              aria-hidden="true"
            />
          </div>
        </div>
        <figure className="focal-point__kept">
          <div
            className="focal-point__frame"
            style={{ aspectRatio: `${frame.width} / ${frame.height}` }}
          >
            {source ? <img src={source} alt="" style={{ objectPosition: position }} /> : null}
          </div>
          <figcaption>What the site shows</figcaption>
        </figure>
      </div>
      <div className="focal-point__sliders">
        {AXES.map(({ axis, word }) => (
          <label key={axis}>
            <span>
              Focal point {word}: {focus[axis]} %
            </span>
            <input
              type="range"
              min={0}
              max={100}
              value={focus[axis]}
              onChange={(event) => setFocus({ ...focus, [axis]: Number(event.target.value) })}
            />
          </label>
        ))}
      </div>
      <div className="focal-point__actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => onUpload(focus)}
        >
          {busy ? "Uploading…" : "Upload this crop"}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
