import { index, type RouteConfig, route } from "@react-router/dev/routes";
import {
  CASE_STUDY_ROUTE,
  CONFIRM_SUBSCRIPTION_PATH,
  INSIGHT_ISSUE_ROUTE,
  INSIGHT_PATH,
  PRIVACY_PATH,
  ROUTES,
  SUBSCRIBE_PATH,
  UNSUBSCRIBE_PATH,
} from "../shared/routes.ts";

export default [
  index("routes/home.tsx"),
  route(ROUTES.weServe, "routes/weserve.tsx", [route(CASE_STUDY_ROUTE, "routes/case-study.tsx")]),
  route(ROUTES.weDo, "routes/wedo.tsx"),
  route(ROUTES.weAre, "routes/weare.tsx"),
  route(ROUTES.contactUs, "routes/contact-us.tsx"),
  route(UNSUBSCRIBE_PATH, "routes/unsubscribe.tsx"),
  route(SUBSCRIBE_PATH, "routes/subscribe.tsx"),
  route(CONFIRM_SUBSCRIPTION_PATH, "routes/confirm-subscription.tsx"),
  route(INSIGHT_PATH, "routes/insight.tsx"),
  route(INSIGHT_ISSUE_ROUTE, "routes/insight-issue.tsx"),
  route(PRIVACY_PATH, "routes/privacy.tsx"),
  // Any other path shows the Home page (the server answers it with 404).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
