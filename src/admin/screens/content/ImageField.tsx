/**
 * A record's picture: the one the site shows, and a file input that uploads
 * a new one at once. The server checks the file, crops it to the size the
 * site shows it at and answers its name; the form saves that name with the
 * record, so the site changes only when the record is saved.
 */
import { useState } from "react";
import {
  ACCEPTED_IMAGE_TYPES,
  IMAGE_FORMATS,
  IMAGE_LABELS,
  type ImageKind,
  imageUrl,
  MEDIA_API,
  type UploadAnswer,
} from "../../../shared/admin/content.ts";
import { api, withQuery } from "../../api/client.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";

interface ImageFieldProps {
  kind: ImageKind;
  imagePath: string;
  /** The form's reason (no picture yet). */
  error: string | undefined;
  onUploaded(imagePath: string): void;
}

export function ImageField({ kind, imagePath, error, onUploaded }: ImageFieldProps) {
  const [progress, setProgress] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const label = IMAGE_LABELS[kind].toLowerCase();
  const { width, height } = IMAGE_FORMATS[kind];

  async function upload(file: File) {
    setFailure(null);
    setProgress(`Uploading ${file.name}…`);
    const body = new FormData();
    body.append("file", file);
    try {
      const answer = await api.post<UploadAnswer>(withQuery(MEDIA_API, { kind }), body);
      onUploaded(answer.imagePath);
      setProgress(`Uploaded. Save to put the new ${label} on the site.`);
    } catch (refusal) {
      setProgress("");
      setFailure(refusal instanceof Error ? refusal.message : String(refusal));
    }
  }

  return (
    <FieldFrame
      label={imagePath ? `Upload a new ${label}` : `Upload a ${label}`}
      hint={`JPEG, PNG, WebP or AVIF. It is cropped to ${width} × ${height} pixels around what matters in it, and its metadata is removed.`}
      error={failure ?? error}
    >
      {(control) => (
        <div className="image-field">
          <div className={`image-field__preview image-field__preview--${kind}`}>
            {imagePath ? (
              <img
                src={imageUrl(kind, imagePath)}
                alt={`The ${label} the site shows`}
                width={width}
                height={height}
              />
            ) : (
              <span>No {label} yet</span>
            )}
          </div>
          <div className="image-field__input">
            <input
              {...control}
              type="file"
              accept={ACCEPTED_IMAGE_TYPES.join(",")}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void upload(file);
              }}
            />
            <p className="image-field__progress" role="status">
              {progress}
            </p>
          </div>
        </div>
      )}
    </FieldFrame>
  );
}
