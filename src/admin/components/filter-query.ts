/**
 * A list's filter form as the address bar's query: what was typed and chosen,
 * leaving out empty text and the "all" choice, so an unfiltered list has a
 * plain address and a bookmark says only what narrows it.
 */
export function filterQuery(form: HTMLFormElement): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (text && text !== "all") query.set(name, text);
  }
  return query;
}
