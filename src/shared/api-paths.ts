/** §7: the calls the site makes, relative to the configured backend host. */
export const API_PATHS = {
  subscribe: "api/v1/subscribe",
  teams: "api/v1/teams/",
  items: "api/v1/items/",
  sendComment: "api/v1/send-comment",
  xsrf: "api/v1/xsrf",
  unsubscribe: "api/v1/unsubscribe",
} as const;
