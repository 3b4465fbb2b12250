import type React from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { SignInPage } from '../features/auth/SignInPage';
import { SsoCallbackPage } from '../features/auth/SsoCallbackPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { RouteErrorPage, ServerErrorPage } from '../features/errors/ServerErrorPage';
import { PlaceholderPage } from '../features/placeholder/PlaceholderPage';
import { NoteRoute } from '../features/notes/NoteRoute';
import { RequireAdmin, RequireAuth, RequireGuest } from './guards';
import { Layout } from './Layout';
import { Root } from './Root';

/*
 * Sign-in and the dashboard ship with the first route; every other screen is its own chunk, loaded when
 * it is first opened (the note editor, the largest, loads lazily inside NoteRoute).
 */
const page = <M,>(load: () => Promise<M>, pick: (module: M) => React.ComponentType) => async () => ({ Component: pick(await load()) });

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/signin', element: <RequireGuest><SignInPage /></RequireGuest> },
      { path: '/login/okta/auth/callback', element: <SsoCallbackPage /> },
      { path: '/notFound', element: <NotFoundPage /> },
      { path: '/error', element: <ServerErrorPage /> },
      {
        element: <RequireAuth><Layout /></RequireAuth>,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: '/project', lazy: page(() => import('../features/projects/ProjectListPage'), (m) => m.ProjectListPage) },
          { path: '/project/create', lazy: page(() => import('../features/projects/ProjectCreatePage'), (m) => m.ProjectCreatePage) },
          { path: '/project/:id', lazy: page(() => import('../features/projects/ProjectDetailPage'), (m) => m.ProjectDetailPage) },
          { path: '/schema', element: <PlaceholderPage page="schema" testName="schema" /> },
          { path: '/schema/create', element: <PlaceholderPage page="schemaCreate" testName="schema-create" /> },
          { path: '/schema/:id', element: <PlaceholderPage page="schemaDetail" testName="schema-detail" /> },
          { path: '/dropbox', element: <PlaceholderPage page="dropbox" testName="dropbox" /> },
          { path: '/dropbox/create', element: <PlaceholderPage page="dropboxCreate" testName="dropbox-create" /> },
          { path: '/dropbox/:id', element: <PlaceholderPage page="dropboxDetail" testName="dropbox-detail" /> },
          { path: '/template', element: <PlaceholderPage page="template" testName="template" /> },
          { path: '/template/note/:id', element: <PlaceholderPage page="templateNote" testName="template-note" /> },
          { path: '/note/:id', element: <NoteRoute /> },
          { path: '/editor/:id', element: <NoteRoute /> },
          {
            element: <RequireAdmin />,
            children: [
              { path: '/admin', lazy: page(() => import('../features/admin/UserListPage'), (m) => m.UserListPage) },
              { path: '/admin/audit', lazy: page(() => import('../features/audit/AuditPage'), (m) => m.AuditPage) },
              { path: '/admin/department', lazy: page(() => import('../features/admin/DepartmentPage'), (m) => m.DepartmentPage) },
              { path: '/admin/download', lazy: page(() => import('../features/audit/DownloadPage'), (m) => m.DownloadPage) },
              { path: '/admin/:id', lazy: page(() => import('../features/admin/UserEditPage'), (m) => m.UserEditPage) },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/notFound" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
