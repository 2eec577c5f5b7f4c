/** The console's entry: the site's colour tokens, the session, and the screens. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
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
// A data router, so a form with unsaved changes can ask before the person
// leaves it (forms/use-kept-typing.tsx); the screens' own routes stay in App.
const router = createBrowserRouter(
  [
    {
      path: "*",
      element: (
        <SessionProvider>
          <App />
        </SessionProvider>
      ),
    },
  ],
  { basename: "/admin" },
);

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
