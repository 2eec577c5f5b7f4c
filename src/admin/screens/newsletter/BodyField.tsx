/**
 * The issue's body: Markdown in a monospace text area, a reminder of the
 * syntax the e-mail and the archive understand, and a picture uploaded and
 * put in at the cursor.
 */
import { useRef } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { IssueDraft } from "../../../shared/admin/newsletter.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { InsertImage } from "./InsertImage.tsx";

const SYNTAX_HELP = (
  <>
    Markdown: <code>## Heading</code>, <code>**bold**</code>, <code>[link text](https://…)</code>,{" "}
    <code>![description](address)</code> for a picture, <code>&gt; quote</code>, <code>- item</code>{" "}
    or <code>1. item</code> for a list. A blank line starts a new paragraph.{" "}
    <code>{"{first_name|there}"}</code> is each reader's first name, or the word after the bar when
    there is none (also in the title and summary; <code>{"{last_name}"}</code> too).
  </>
);

/** The line breaks that make what goes between `before` and `after` a paragraph of its own. */
function paragraphBreaks(before: string, after: string) {
  const lead =
    before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail =
    after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  return { lead, trail };
}

export function BodyField({ form }: { form: UseFormReturn<IssueDraft> }) {
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const { ref, ...body } = form.register("body");
  const { errors, isSubmitted } = form.formState;

  function insert(markdown: string) {
    const element = textarea.current;
    if (!element) return;
    const before = element.value.slice(0, element.selectionStart);
    const after = element.value.slice(element.selectionEnd);
    const { lead, trail } = paragraphBreaks(before, after);
    form.setValue("body", `${before}${lead}${markdown}${trail}${after}`, {
      shouldDirty: true,
      shouldValidate: isSubmitted,
    });
    // The cursor goes just after the picture, where the writing goes on.
    const caret = before.length + lead.length + markdown.length;
    element.focus();
    element.setSelectionRange(caret, caret);
  }

  return (
    <div className="body-field">
      <FieldFrame label="Body" hint={SYNTAX_HELP} error={errors.body?.message}>
        {(control) => (
          <textarea
            {...control}
            {...body}
            ref={(element) => {
              ref(element);
              textarea.current = element;
            }}
            className="markdown-input"
            rows={18}
            spellCheck
          />
        )}
      </FieldFrame>
      <InsertImage onInsert={insert} />
    </div>
  );
}
