import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("weserve", "routes/weserve.tsx"),
  route("wedo", "routes/wedo.tsx"),
  route("weare", "routes/weare.tsx"),
  route("contact-us", "routes/contact-us.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  // §2: any other path shows the Home page (the server answers it with 404).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
