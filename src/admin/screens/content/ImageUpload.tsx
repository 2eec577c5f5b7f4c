/**
 * Uploading a picture through the console's media route, for a record's
 * picture (ImageField) and for a picture in an Insight issue (InsertImage):
 * the file input, the words on the size the server makes it, and the
 * upload with its progress and failure.
 */
import { useState } from "react";
import {
  ACCEPTED_IMAGE_TYPES,
  type FocalPoint,
  IMAGE_FORMATS,
  type ImageKind,
  type UploadAnswer,
} from "../../../shared/admin/content.ts";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import type { ControlProps } from "../../components/FieldFrame.tsx";

/** What the upload does to a picture of `kind`, said under its input. */
export function uploadHint(kind: ImageKind): string {
  const { width, height, fit } = IMAGE_FORMATS[kind];
  return fit === "cover"
    ? `JPEG, PNG, WebP or AVIF. It is cropped to ${width} × ${height} pixels around the part you choose, and its metadata is removed.`
    : `JPEG, PNG, WebP or AVIF. It keeps its shape: nothing is cut off, a larger one is shrunk to fit ${width} × ${height} pixels, and its metadata is removed.`;
}

/** A file input for pictures; cleared after each choice, so the same file can be chosen again. */
export function ImageFileInput({
  onFile,
  ...control
}: ControlProps & { onFile(file: File): void }) {
  return (
    <input
      {...control}
      type="file"
      accept={ACCEPTED_IMAGE_TYPES.join(",")}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = "";
        if (file) onFile(file);
      }}
    />
  );
}

/**
 * Uploads pictures of `kind`. `upload(file, done)` says it is uploading, then
 * shows what `done` returns for the server's answer, or the failure.
 */
export function useImageUpload(kind: ImageKind) {
  const [progress, setProgress] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  /** Clears what the last upload said. */
  function reset() {
    setFailure(null);
    setProgress("");
  }

  /**
   * `description` says what the picture shows (the server requires it for an
   * issue's picture); `focus` is where a cropped picture's crop is centred.
   */
  async function upload(
    file: File,
    done: (answer: UploadAnswer) => string,
    { description, focus }: { description?: string; focus?: FocalPoint } = {},
  ): Promise<void> {
    setFailure(null);
    setProgress(`Uploading ${file.name}…`);
    const body = new FormData();
    body.append("file", file);
    try {
      const query = { kind, description, focusX: focus?.x, focusY: focus?.y };
      const answer = await api.call("media.upload", { query, body });
      setProgress(done(answer));
    } catch (error) {
      setProgress("");
      setFailure(failureText(error));
    }
  }

  return { progress, failure, upload, reset };
}
