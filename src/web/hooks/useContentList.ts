/**
 * Loads a content list from the API (spec §7, §8): a 200 fills the list, any
 * other status leaves it empty silently, and a failed request shows the
 * "Something went wrong!" dialog. `settled` tells when the answer came.
 */
import { useEffect, useState } from "react";
import { DIALOG } from "../../shared/constants.ts";
import type { ApiResponse } from "../api/client.ts";
import { useAlert } from "./useAlert.ts";

export function useContentList<T>(load: () => Promise<ApiResponse<T[]>>) {
  const [items, setItems] = useState<T[]>([]);
  const [settled, setSettled] = useState(false);
  const showAlert = useAlert();

  // biome-ignore lint/correctness/useExhaustiveDependencies: each list loads once per mount
  useEffect(() => {
    let active = true;
    load()
      .then((response) => {
        if (active && response.status === 200 && Array.isArray(response.data)) {
          setItems(response.data);
        }
      })
      .catch(() => {
        if (active) showAlert({ title: DIALOG.failureTitle, text: DIALOG.somethingWrong });
      })
      .finally(() => {
        if (active) setSettled(true);
      });
    return () => {
      active = false;
    };
  }, []);

  return { items, settled };
}
