/**
 * Hydration starts once the page has been painted (ADR 021).
 * Every page is whole without script (ADR 012), so its first screen needs
 * none of React's code; as React Router writes a page, its module preloads
 * ask for about 110 KB at high priority at once, and on a slow phone
 * connection they compete with what the first paint needs: the rest of the
 * page, its fonts and its pictures.
 *
 * entry.server.tsx passes each rendered page through here: the preloads are
 * taken out of the head, and React Router's module script (it imports the
 * route modules, then starts hydration) is written as an inert data block.
 * A small classic script, once the page has been painted, adds the same
 * preloads (so the modules still come in parallel, not one import
 * level after another) and runs the block's text as a module. The text is
 * unchanged, so the page's Content-Security-Policy, which allows each inline
 * script by its hash, still allows it.
 */

import {
  elementsNamed,
  replaceSpans,
  type Span,
  tagsBeginning,
} from "../../shared/html-elements.ts";

/** The id of the inert copy of React Router's module script. */
export const HYDRATION_SCRIPT_ID = "hydration";

const MODULE_PRELOAD = '<link rel="modulepreload" href="';
const MODULE_SCRIPT = '<script type="module" async="">';

/**
 * The classic script that starts hydration once the browser has reported the
 * page's first contentful paint (not `load`: a slow picture or font must not
 * hold the page's behaviour back). Where the Paint Timing API is missing, the
 * next frame stands in: a frame's callback runs before that frame is painted,
 * hence the timeout after it.
 */
function starter(preloads: string[]): string {
  return `(function(){
function go(){${JSON.stringify(preloads)}.forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.append(l)});var s=document.createElement("script");s.type="module";s.text=document.getElementById("${HYDRATION_SCRIPT_ID}").text;document.head.append(s)}
if(typeof PerformanceObserver==="function"&&PerformanceObserver.supportedEntryTypes.indexOf("paint")>=0)new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();go()}}).observe({type:"paint",buffered:true});
else requestAnimationFrame(function(){setTimeout(go)})})()`;
}

/** The page with its hydration deferred; a page without React Router's module script is returned as it is. */
export function deferHydration(html: string): string {
  const script = elementsNamed(html, "script").find(({ startTag }) => startTag === MODULE_SCRIPT);
  if (!script) return html;
  const links = tagsBeginning(html, MODULE_PRELOAD);
  const preloads = links.map(({ tag }) =>
    tag.slice(MODULE_PRELOAD.length, tag.indexOf('"', MODULE_PRELOAD.length)),
  );
  const inert = `<script type="text/x-deferred-module" id="${HYDRATION_SCRIPT_ID}">${script.body}</script>`;
  const spans: Span[] = [...links, script].sort((a, b) => a.start - b.start);
  return replaceSpans(html, spans, (span) =>
    span === script ? `${inert}<script>${starter(preloads)}</script>` : "",
  );
}
