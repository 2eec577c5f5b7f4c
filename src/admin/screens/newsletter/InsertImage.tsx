/**
 * A picture for the body: described first (its alt text), then uploaded
 * through the console's media upload, which crops it to the content
 * pictures' size and answers where the site serves it; the Markdown for it
 * goes in at the cursor.
 */
import { useState } from "react";
import {
  ACCEPTED_IMAGE_TYPES,
  IMAGE_FORMATS,
  type ImageKind,
  MEDIA_API,
  type UploadAnswer,
} from "../../../shared/admin/content.ts";
import { api, withQuery } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";

/** The larger of the content pictures: an issue's pictures are shown across the e-mail. */
const KIND: ImageKind = "item";

const DESCRIBE_FIRST = "Describe the picture first, then choose it.";

/** Brackets and backslashes would end the description early: Markdown reads them escaped. */
const escapeAlt = (alt: string) => alt.replace(/[\\[\]]/g, "\\$&");

export function InsertImage({ onInsert }: { onInsert(markdown: string): void }) {
  const [alt, setAlt] = useState("");
  const [altMissing, setAltMissing] = useState(false);
  const [progress, setProgress] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const { width, height } = IMAGE_FORMATS[KIND];

  async function upload(file: File) {
    setFailure(null);
    const description = alt.trim().replace(/\s+/g, " ");
    if (!description) {
      setAltMissing(true);
      setProgress("");
      return;
    }
    setProgress(`Uploading ${file.name}…`);
    const body = new FormData();
    body.append("file", file);
    try {
      const answer = await api.post<UploadAnswer>(withQuery(MEDIA_API, { kind: KIND }), body);
      onInsert(`![${escapeAlt(description)}](${answer.url})`);
      setAlt("");
      setProgress("Inserted at the cursor. Save to keep it.");
    } catch (error) {
      setProgress("");
      setFailure(failureText(error));
    }
  }

  return (
    <fieldset className="insert-image">
      <legend>Insert a picture at the cursor</legend>
      <Field
        label="Its description"
        hint="Read out to people who cannot see it, and shown where a mail program blocks pictures."
        autoComplete="off"
        value={alt}
        error={altMissing ? DESCRIBE_FIRST : undefined}
        onChange={(event) => {
          setAlt(event.target.value);
          setAltMissing(false);
        }}
      />
      <FieldFrame
        label="Picture"
        hint={`JPEG, PNG, WebP or AVIF. It is cropped to ${width} × ${height} pixels around what matters in it, and its metadata is removed.`}
        error={failure ?? undefined}
      >
        {(control) => (
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
        )}
      </FieldFrame>
      <p className="insert-image__progress" role="status">
        {progress}
      </p>
    </fieldset>
  );
}
