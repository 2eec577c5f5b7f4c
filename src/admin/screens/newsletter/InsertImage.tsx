/**
 * A picture for the body: described first (its alt text), then uploaded
 * through the console's media upload with its description, which keeps its
 * shape (shrunk to fit, never cropped), makes the copy mail programs show and
 * answers where the site serves it; the Markdown for it goes in at the cursor.
 */
import { useState } from "react";
import { IMAGE_DESCRIPTION_MAX, type ImageKind } from "../../../shared/admin/content.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { ImageFileInput, uploadHint, useImageUpload } from "../content/ImageUpload.tsx";

const KIND: ImageKind = "issue";

const DESCRIBE_FIRST = "Describe the picture first, then choose it.";
const DESCRIBE_SHORTER = `Keep the description to ${IMAGE_DESCRIPTION_MAX} characters or fewer: say what the picture shows, and leave the rest to the text.`;

/** Brackets and backslashes would end the description early: Markdown reads them escaped. */
const escapeAlt = (alt: string) => alt.replace(/[\\[\]]/g, "\\$&");

export function InsertImage({ onInsert }: { onInsert(markdown: string): void }) {
  const [alt, setAlt] = useState("");
  const [altProblem, setAltProblem] = useState<string | null>(null);
  const { progress, failure, upload, reset } = useImageUpload(KIND);

  function insert(file: File) {
    const description = alt.trim().replace(/\s+/g, " ");
    if (!description || description.length > IMAGE_DESCRIPTION_MAX) {
      reset();
      setAltProblem(description ? DESCRIBE_SHORTER : DESCRIBE_FIRST);
      return;
    }
    void upload(
      file,
      (answer) => {
        onInsert(`![${escapeAlt(description)}](${answer.url})`);
        setAlt("");
        // The draft saves itself a moment later (useDraftForm).
        return "Inserted at the cursor.";
      },
      { description },
    );
  }

  return (
    <fieldset className="insert-image">
      <legend>Insert a picture at the cursor</legend>
      <Field
        label="Its description"
        hint="Read out to people who cannot see it, and shown where a mail program blocks pictures."
        autoComplete="off"
        value={alt}
        error={altProblem ?? undefined}
        onChange={(event) => {
          setAlt(event.target.value);
          setAltProblem(null);
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
