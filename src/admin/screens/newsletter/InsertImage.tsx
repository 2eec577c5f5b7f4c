/**
 * A picture for the body: described first (its alt text), then uploaded
 * through the console's media upload, which crops it to the content
 * pictures' size and answers where the site serves it; the Markdown for it
 * goes in at the cursor.
 */
import { useState } from "react";
import type { ImageKind } from "../../../shared/admin/content.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { ImageFileInput, uploadHint, useImageUpload } from "../content/ImageUpload.tsx";

/** The larger of the content pictures: an issue's pictures are shown across the e-mail. */
const KIND: ImageKind = "item";

const DESCRIBE_FIRST = "Describe the picture first, then choose it.";

/** Brackets and backslashes would end the description early: Markdown reads them escaped. */
const escapeAlt = (alt: string) => alt.replace(/[\\[\]]/g, "\\$&");

export function InsertImage({ onInsert }: { onInsert(markdown: string): void }) {
  const [alt, setAlt] = useState("");
  const [altMissing, setAltMissing] = useState(false);
  const { progress, failure, upload, reset } = useImageUpload(KIND);

  function insert(file: File) {
    const description = alt.trim().replace(/\s+/g, " ");
    if (!description) {
      reset();
      setAltMissing(true);
      return;
    }
    void upload(file, (answer) => {
      onInsert(`![${escapeAlt(description)}](${answer.url})`);
      setAlt("");
      return "Inserted at the cursor. Save to keep it.";
    });
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
      <FieldFrame label="Picture" hint={uploadHint(KIND)} error={failure ?? undefined}>
        {(control) => <ImageFileInput {...control} onFile={insert} />}
      </FieldFrame>
      <p className="insert-image__progress" role="status">
        {progress}
      </p>
    </fieldset>
  );
}
