// Every page of the app, one line each. Pages load on first visit (their code is a chunk of its
// own). Signed-in pages sit under RequireSignIn + AppShell; a later flow adds its lines here and its
// entry in shell/nav.ts (see web/README.md).
import { Navigate, type RouteObject } from 'react-router';
import { RequireSignIn } from './session/session.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { NotFoundPage } from './shell/not-found-page.tsx';
import { RouteError } from './shell/route-error.tsx';

const page = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load });
const askPage = page(() => import('./ask/ask-page.tsx').then((m) => ({ Component: m.AskPage })));

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <p className="page-message">Loading…</p>,
    children: [
      { path: '/login', ...page(() => import('./sign-in/sign-in-page.tsx').then((m) => ({ Component: m.SignInPage }))) },
      { path: '/magic-link', ...page(() => import('./sign-in/sign-in-page.tsx').then((m) => ({ Component: m.MagicLinkPage }))) },
      { path: '/signup', ...page(() => import('./sign-in/sign-up-page.tsx').then((m) => ({ Component: m.SignUpPage }))) },
      { path: '/verify', ...page(() => import('./sign-in/verify-page.tsx').then((m) => ({ Component: m.VerifyPage }))) },
      { path: '/reset-password', ...page(() => import('./sign-in/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage }))) },
      { path: '/invitation', ...page(() => import('./invitation/invitation-page.tsx').then((m) => ({ Component: m.InvitationPage }))) },
      { path: '/mfa-recovery', ...page(() => import('./sign-in/mfa-recovery-page.tsx').then((m) => ({ Component: m.MfaRecoveryPage }))) },
      { path: '/unsubscribe', ...page(() => import('./subscriptions/unsubscribe-page.tsx').then((m) => ({ Component: m.UnsubscribePage }))) },
      { path: '/share/:shareId', ...page(() => import('./chats/shared-chat-page.tsx').then((m) => ({ Component: m.SharedChatPage }))) },
      { path: '/shared-dashboard/:shareId', ...page(() => import('./dashboards/shared-dashboard-page.tsx').then((m) => ({ Component: m.SharedDashboardPage }))) },
      {
        element: (
          <RequireSignIn>
            <AppShell />
          </RequireSignIn>
        ),
        children: [
          {
            ...page(() => import('./chats/chats-layout.tsx').then((m) => ({ Component: m.ChatsLayout }))),
            children: [
              { index: true, ...askPage },
              { path: '/chat/:chatId', ...askPage },
            ],
          },
          { path: '/saved', ...page(() => import('./saved/saved-list-page.tsx').then((m) => ({ Component: m.SavedListPage }))) },
          { path: '/saved/:id', ...page(() => import('./saved/saved-question-page.tsx').then((m) => ({ Component: m.SavedQuestionPage }))) },
          { path: '/sql', ...page(() => import('./sql/sql-editor-page.tsx').then((m) => ({ Component: m.SqlEditorPage }))) },
          { path: '/dashboards', ...page(() => import('./dashboards/dashboards-list-page.tsx').then((m) => ({ Component: m.DashboardsListPage }))) },
          { path: '/dashboards/:id', ...page(() => import('./dashboards/dashboard-page.tsx').then((m) => ({ Component: m.DashboardPage }))) },
          { path: '/subscriptions', ...page(() => import('./subscriptions/subscriptions-page.tsx').then((m) => ({ Component: m.SubscriptionsPage }))) },
          {
            path: '/settings',
            ...page(() => import('./settings/settings-layout.tsx').then((m) => ({ Component: m.SettingsLayout }))),
            children: [
              { index: true, element: <Navigate to="/settings/profile" replace /> },
              { path: 'profile', ...page(() => import('./settings/profile-page.tsx').then((m) => ({ Component: m.ProfilePage }))) },
              { path: 'tokens', ...page(() => import('./settings/tokens-page.tsx').then((m) => ({ Component: m.TokensPage }))) },
              { path: 'security', ...page(() => import('./settings/security-page.tsx').then((m) => ({ Component: m.SecurityPage }))) },
              { path: 'workspaces', ...page(() => import('./settings/workspaces-page.tsx').then((m) => ({ Component: m.WorkspacesPage }))) },
              { path: 'disclaimers', ...page(() => import('./settings/disclaimers-page.tsx').then((m) => ({ Component: m.DisclaimersPage }))) },
            ],
          },
          {
            path: '/knowledge',
            ...page(() => import('./knowledge/knowledge-layout.tsx').then((m) => ({ Component: m.KnowledgeLayout }))),
            children: [
              { index: true, element: <Navigate to="/knowledge/items/tables" replace /> },
              { path: 'items/:kind', ...page(() => import('./knowledge/items-page.tsx').then((m) => ({ Component: m.ItemsPage }))) },
              { path: 'items/:kind/:id', ...page(() => import('./knowledge/item-page.tsx').then((m) => ({ Component: m.ItemPage }))) },
              { path: 'environments', ...page(() => import('./knowledge/environments-page.tsx').then((m) => ({ Component: m.EnvironmentsPage }))) },
              { path: 'environments/:id', ...page(() => import('./knowledge/environment-page.tsx').then((m) => ({ Component: m.EnvironmentPage }))) },
              { path: 'evaluations', ...page(() => import('./knowledge/evaluations-page.tsx').then((m) => ({ Component: m.EvaluationsPage }))) },
              { path: 'import/dbt', ...page(() => import('./knowledge/dbt-import-page.tsx').then((m) => ({ Component: m.DbtImportPage }))) },
              { path: 'evaluations/runs/:id', ...page(() => import('./knowledge/run-page.tsx').then((m) => ({ Component: m.RunPage }))) },
            ],
          },
          {
            path: '/admin',
            ...page(() => import('./admin/admin-layout.tsx').then((m) => ({ Component: m.AdminLayout }))),
            children: [
              { index: true, element: <Navigate to="/admin/members" replace /> },
              { path: 'members', ...page(() => import('./admin/members-page.tsx').then((m) => ({ Component: m.MembersPage }))) },
              { path: 'invitations', ...page(() => import('./admin/invitations-page.tsx').then((m) => ({ Component: m.InvitationsPage }))) },
              { path: 'organization', ...page(() => import('./admin/organization-page.tsx').then((m) => ({ Component: m.OrganizationPage }))) },
              { path: 'workspaces', ...page(() => import('./admin/workspaces-page.tsx').then((m) => ({ Component: m.WorkspacesPage }))) },
              { path: 'sso', ...page(() => import('./admin/sso-page.tsx').then((m) => ({ Component: m.SsoPage }))) },
              { path: 'audit', ...page(() => import('./admin/audit-page.tsx').then((m) => ({ Component: m.AuditPage }))) },
              { path: 'usage', ...page(() => import('./admin/usage-page.tsx').then((m) => ({ Component: m.UsagePage }))) },
              { path: 'connections', ...page(() => import('./admin/connections-page.tsx').then((m) => ({ Component: m.ConnectionsPage }))) },
              { path: 'row-security', ...page(() => import('./admin/row-security-page.tsx').then((m) => ({ Component: m.RowSecurityPage }))) },
            ],
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
