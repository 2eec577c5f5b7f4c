/**
 * A record's picture: the one the site shows, and a file input for a new
 * one. The editor first chooses what the crop to the site's frame keeps
 * (FocalPointPicker); the server checks the file, crops it there and
 * answers its name; the form saves that name with the record, so the site
 * changes only when the record is saved.
 */
import { useState } from "react";
import {
  type FocalPoint,
  IMAGE_FORMATS,
  IMAGE_LABELS,
  type ImageKind,
  imageUrl,
} from "../../../shared/admin/content.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { FocalPointPicker } from "./FocalPointPicker.tsx";
import { ImageFileInput, uploadHint, useImageUpload } from "./ImageUpload.tsx";

interface ImageFieldProps {
  kind: ImageKind;
  imagePath: string;
  /** The form's reason (no picture yet). */
  error: string | undefined;
  onUploaded(imagePath: string): void;
}

export function ImageField({ kind, imagePath, error, onUploaded }: ImageFieldProps) {
  const { progress, failure, upload, reset } = useImageUpload(kind);
  const label = IMAGE_LABELS[kind].toLowerCase();
  const { width, height, fit } = IMAGE_FORMATS[kind];
  // A picture cropped to the site's frame waits for the editor to say what it keeps.
  const [toCrop, setToCrop] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);

  async function send(file: File, focus?: FocalPoint) {
    setUploading(true);
    await upload(
      file,
      (answer) => {
        onUploaded(answer.imagePath);
        setToCrop(null);
        return `Uploaded. The site shows the new ${label} once you publish.`;
      },
      focus ? { focus } : {},
    );
    setUploading(false);
  }

  return (
    <FieldFrame
      label={imagePath ? `Upload a new ${label}` : `Upload a ${label}`}
      hint={uploadHint(kind)}
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
            <ImageFileInput
              {...control}
              onFile={(file) => {
                reset();
                if (fit === "cover") setToCrop(file);
                else void send(file);
              }}
            />
            <p className="image-field__progress" role="status">
              {progress}
            </p>
          </div>
          {toCrop ? (
            <FocalPointPicker
              file={toCrop}
              frame={{ width, height }}
              label={label}
              busy={uploading}
              onUpload={(focus) => void send(toCrop, focus)}
              onCancel={() => setToCrop(null)}
              onUnreadable={() => {
                setToCrop(null);
                void send(toCrop);
              }}
            />
          ) : null}
        </div>
      )}
    </FieldFrame>
  );
}
