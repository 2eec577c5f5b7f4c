/**
 * A route's own hooks with one more in front: a hook that only some routes
 * need is put on those routes (from an onRoute hook), rather than run on
 * every request to decide it has nothing to do.
 */
export function withHookFirst<Hook>(hook: Hook, own: Hook | Hook[] | undefined): Hook[] {
  if (own === undefined) return [hook];
  return [hook, ...(Array.isArray(own) ? own : [own])];
}
