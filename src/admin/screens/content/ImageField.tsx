/**
 * A record's picture: the one the site shows, and a file input that uploads
 * a new one at once. The server checks the file, crops it to the size the
 * site shows it at and answers its name; the form saves that name with the
 * record, so the site changes only when the record is saved.
 */
import {
  IMAGE_FORMATS,
  IMAGE_LABELS,
  type ImageKind,
  imageUrl,
} from "../../../shared/admin/content.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { ImageFileInput, uploadHint, useImageUpload } from "./ImageUpload.tsx";

interface ImageFieldProps {
  kind: ImageKind;
  imagePath: string;
  /** The form's reason (no picture yet). */
  error: string | undefined;
  onUploaded(imagePath: string): void;
}

export function ImageField({ kind, imagePath, error, onUploaded }: ImageFieldProps) {
  const { progress, failure, upload } = useImageUpload(kind);
  const label = IMAGE_LABELS[kind].toLowerCase();
  const { width, height } = IMAGE_FORMATS[kind];

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
              onFile={(file) =>
                upload(file, (answer) => {
                  onUploaded(answer.imagePath);
                  return `Uploaded. The site shows the new ${label} once you publish.`;
                })
              }
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
