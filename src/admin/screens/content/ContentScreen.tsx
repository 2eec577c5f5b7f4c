/**
 * The content area: the six lists the public pages show,
 * and the site facts, one at a time, chosen from a side list (a row of tabs
 * on a phone). A list can be reordered and its records hidden; a record opens
 * in its form with its versions, as the site facts do.
 */
import { useEffect, useRef } from "react";
import { Navigate, NavLink, Route, Routes, useLocation, useParams } from "react-router";
import { CONTENT_LISTS, type ContentList, LIST_SPECS } from "../../../shared/admin/content.ts";
import { SITE_FACTS_LABEL } from "../../../shared/admin/site-facts.ts";
import { EditScreen } from "./EditScreen.tsx";
import { ListScreen } from "./ListScreen.tsx";
import { SiteFactsScreen } from "./SiteFactsScreen.tsx";
import "./content.css";

function isContentList(value: string | undefined): value is ContentList {
  return CONTENT_LISTS.includes(value as ContentList);
}

/** The screen for a list's path, or back to the first list for an unknown one. */
function ListRoute({ screen }: { screen: "list" | "new" | "edit" }) {
  const { list, id } = useParams();
  if (!isContentList(list)) return <Navigate to="/content/team" replace />;
  const spec = LIST_SPECS[list];
  if (screen === "list") return <ListScreen spec={spec} />;
  const entryId = screen === "edit" ? Number(id) : null;
  if (entryId !== null && !(Number.isInteger(entryId) && entryId > 0)) {
    return <Navigate to={`/content/${list}`} replace />;
  }
  return <EditScreen key={`${list}/${entryId ?? "new"}`} spec={spec} id={entryId} />;
}

/**
 * On a phone the lists are a row of tabs wider than the screen: the open one
 * is scrolled into view, so it is never hidden beyond the edge.
 */
function useOpenTabInView() {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path opens another tab
  useEffect(() => {
    nav.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  return nav;
}

export default function ContentScreen() {
  const nav = useOpenTabInView();
  return (
    <div className="content-area">
      <div className="screen-head">
        <h1>Content</h1>
      </div>
      <div className="content-layout">
        <nav aria-label="Content lists" className="content-nav" ref={nav}>
          <ul>
            {CONTENT_LISTS.map((list) => (
              <li key={list}>
                <NavLink to={`/content/${list}`}>{LIST_SPECS[list].label}</NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/content/site-facts">{SITE_FACTS_LABEL}</NavLink>
            </li>
          </ul>
        </nav>
        <div className="content-main">
          <Routes>
            <Route index element={<Navigate to="team" replace />} />
            <Route path="site-facts" element={<SiteFactsScreen />} />
            <Route path=":list" element={<ListRoute screen="list" />} />
            <Route path=":list/new" element={<ListRoute screen="new" />} />
            <Route path=":list/:id" element={<ListRoute screen="edit" />} />
            <Route path="*" element={<Navigate to="/content/team" replace />} />
          </Routes>
        </div>
      </div>
    </div>
  );
}
