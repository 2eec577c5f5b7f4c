/** How many inquiries are new, asked again on every move between screens. */
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { api } from "../api/client.ts";

export function useNewInquiryCount(): number | null {
  const { pathname } = useLocation();
  const [count, setCount] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each move asks again, so handled inquiries drop out
  useEffect(() => {
    let current = true;
    api
      .call("inquiries.counts")
      .then(({ counts }) => current && setCount(counts.new))
      // The count is a convenience: without it the navigation still works.
      .catch(() => current && setCount(null));
    return () => {
      current = false;
    };
  }, [pathname]);
  return count;
}
