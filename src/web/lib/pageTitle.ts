import { SITE } from "../../shared/site.ts";

/** The <title> and description of a route, for its `meta` export. */
export function pageMeta(title: string | null, description: string = SITE.mission) {
  return [
    { title: title ? `${title} | ${SITE.firmName}` : `${SITE.firmName} | Business + Technology` },
    { name: "description", content: description },
  ];
}
