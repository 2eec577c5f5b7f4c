/**
 * The e-mail's plain-text part, as a mail program without HTML shows it:
 * fetched as text (the server answers text/plain, which is not a page to
 * frame) and shown as it is, lines and all.
 */
import { useEffect, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

async function fetchText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: "same-origin" });
  if (response.ok) return response.text();
  const refusal = (await response.json().catch(() => ({}))) as { message?: unknown };
  throw new ApiError(
    response.status,
    typeof refusal.message === "string"
      ? refusal.message
      : `The server answered ${response.status}.`,
  );
}

export function PlainTextPreview({ path }: { path: string }) {
  const [text, setText] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    fetchText(path)
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
