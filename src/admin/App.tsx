/**
 * The console's screens. Before signing in only the sign-in and password
 * screens exist; after it, each area behind the role it needs.
 */
import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { ForgotPasswordScreen } from "./auth/ForgotPasswordScreen.tsx";
import { SetPasswordScreen } from "./auth/SetPasswordScreen.tsx";
import { SignInScreen } from "./auth/SignInScreen.tsx";
import { useSession } from "./auth/session.tsx";
import { AREAS } from "./layout/areas.ts";
import { RequireRole } from "./layout/RequireRole.tsx";
import { Shell } from "./layout/Shell.tsx";

const SCREENS = {
  inquiries: lazy(() => import("./screens/inquiries/InquiriesScreen.tsx")),
  audience: lazy(() => import("./screens/audience/AudienceScreen.tsx")),
  subscribers: lazy(() => import("./screens/subscribers/SubscribersScreen.tsx")),
  suppressions: lazy(() => import("./screens/suppressions/SuppressionsScreen.tsx")),
  health: lazy(() => import("./screens/health/SendingHealthScreen.tsx")),
  backups: lazy(() => import("./screens/backups/BackupsScreen.tsx")),
  webhooks: lazy(() => import("./screens/webhooks/WebhooksScreen.tsx")),
  mail: lazy(() => import("./screens/mail-settings/MailSettingsScreen.tsx")),
  newsletter: lazy(() => import("./screens/newsletter/NewsletterScreen.tsx")),
  content: lazy(() => import("./screens/content/ContentScreen.tsx")),
  people: lazy(() => import("./screens/people/PeopleScreen.tsx")),
  audit: lazy(() => import("./screens/audit/AuditScreen.tsx")),
  account: lazy(() => import("./screens/account/AccountScreen.tsx")),
} as const;

const loading = (
  <p className="loading" role="status">
    Loading…
  </p>
);

export function App() {
  const { me } = useSession();
  if (me === undefined) return loading;
  if (me === null) {
    return (
      <Routes>
        <Route path="set-password" element={<SetPasswordScreen />} />
        <Route path="forgot-password" element={<ForgotPasswordScreen />} />
        <Route path="*" element={<SignInScreen />} />
      </Routes>
    );
  }
  // Someone the owner requires to add a second factor can do nothing else first.
  const home = me.mustEnrolSecondFactor ? "/account" : "/inquiries";
  return (
    <Routes>
      <Route path="set-password" element={<SetPasswordScreen />} />
      <Route element={<Shell />}>
        <Route index element={<Navigate to={home} replace />} />
        {AREAS.map((area) => {
          const Screen = SCREENS[area.path as keyof typeof SCREENS];
          return (
            <Route
              key={area.path}
              path={`${area.path}/*`}
              element={
                <RequireRole role={area.role}>
                  <Suspense fallback={loading}>
                    <Screen />
                  </Suspense>
                </RequireRole>
              }
            />
          );
        })}
        <Route path="*" element={<Navigate to={home} replace />} />
      </Route>
    </Routes>
  );
}
