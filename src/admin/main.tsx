/** The console's entry: the site's colour tokens, the session, and the screens. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { designTokenProperties } from "../shared/design-tokens.ts";
import { App } from "./App.tsx";
import { SessionProvider } from "./auth/session.tsx";
import "@fontsource-variable/inter";
import "./styles/admin.css";

// Set through the CSSOM, which the Content-Security-Policy allows, unlike an inline <style>.
for (const [name, value] of designTokenProperties()) {
  document.documentElement.style.setProperty(name, value);
}

const root = document.getElementById("root");
if (!root) throw new Error("the console's page has no #root");
createRoot(root).render(
  <StrictMode>
    <BrowserRouter basename="/admin">
      <SessionProvider>
        <App />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
