import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { recordLeadSource } from "./lib/lead-source.ts";

// Before the router runs: the first page's address and referrer are the visit's.
recordLeadSource();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
    {
      onRecoverableError: (error) => console.error("recoverable", error),
      onUncaughtError: (error) => console.error("uncaught", error),
    },
  );
});
