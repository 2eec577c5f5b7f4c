/** Any other path shows Home's content; the server answers it with 404 (ADR 002). */
import type { MetaFunction } from "react-router";
import { notFoundMeta } from "../lib/seo.ts";

export { default } from "./home.tsx";

export const meta: MetaFunction = ({ matches }) => notFoundMeta(matches);
