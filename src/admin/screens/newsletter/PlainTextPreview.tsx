/**
 * The e-mail's plain-text part, as a mail program without HTML shows it:
 * loaded as text through the console's client (the server answers
 * text/plain, which is not a page to frame) and shown as it is, lines and all.
 */
import { useEffect, useState } from "react";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

export function PlainTextPreview({ path }: { path: string }) {
  const [text, setText] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    api
      .text(path)
      .then((loaded) => current && setText(loaded))
      .catch((error: unknown) => current && setFailure(failureText(error)));
    return () => {
      current = false;
    };
  }, [path]);

  if (failure) return <Notice tone="error">{failure}</Notice>;
  if (text === null) {
    return (
      <p className="loading" role="status">
        Loading the plain text…
      </p>
    );
  }
  return <pre className="preview-text">{text}</pre>;
}
