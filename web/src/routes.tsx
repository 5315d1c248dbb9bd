// Every page of the app, one line each. Pages load on first visit (their code is a chunk of its
// own). Signed-in pages sit under RequireSignIn + AppShell; a later flow adds its lines here and its
// entry in shell/nav.ts (see web/README.md).
import type { RouteObject } from 'react-router';
import { RequireSignIn } from './session/session.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { NotFoundPage } from './shell/not-found-page.tsx';
import { RouteError } from './shell/route-error.tsx';

const page = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load });

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
      { path: '/mfa-recovery', ...page(() => import('./sign-in/mfa-recovery-page.tsx').then((m) => ({ Component: m.MfaRecoveryPage }))) },
      {
        element: (
          <RequireSignIn>
            <AppShell />
          </RequireSignIn>
        ),
        children: [
          { index: true, ...page(() => import('./ask/ask-page.tsx').then((m) => ({ Component: m.AskPage }))) },
          { path: '/chat/:chatId', ...page(() => import('./ask/ask-page.tsx').then((m) => ({ Component: m.AskPage }))) },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
