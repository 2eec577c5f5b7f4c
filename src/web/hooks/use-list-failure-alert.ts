/** Shows the "Something went wrong!" dialog once when a page's content lists could not be fetched. */
import { useEffect } from "react";
import { DIALOG } from "../../shared/constants.ts";
import type { ContentLists } from "../api/content-lists.ts";
import { useAlert } from "./use-alert.ts";

export function useListFailureAlert(loaded: ContentLists<unknown>): void {
  const showAlert = useAlert();
  useEffect(() => {
    if (loaded.failed) showAlert({ title: DIALOG.failureTitle, text: DIALOG.somethingWrong });
  }, [loaded, showAlert]);
}
