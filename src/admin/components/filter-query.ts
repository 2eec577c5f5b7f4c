/**
 * A list's filter as the address bar's query: what was typed and chosen,
 * leaving out empty text and the "all" choice, so an unfiltered list has a
 * plain address and a bookmark says only what narrows it.
 */
export function filterQuery(values: Record<string, string>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    const text = value.trim();
    if (text && text !== "all") query.set(name, text);
  }
  return query;
}
