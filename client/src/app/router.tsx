import type React from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { SignInPage } from '../features/auth/SignInPage';
import { SsoCallbackPage } from '../features/auth/SsoCallbackPage';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { RouteErrorPage, ServerErrorPage } from '../features/errors/ServerErrorPage';
import { loadScreenStrings } from '../i18n';
import { RequireAdmin, RequireAuth, RequireGuest } from './guards';
import { Root } from './Root';

/*
 * Only the sign pages, the error pages and the guards ship with the first route: the signed-in frame
 * (header, page frame, dashboard) and every screen are chunks loaded when first opened, so the sign-in
 * page downloads none of them (the note editor, the largest, loads lazily inside NoteRoute).
 * tests/architecture.test.ts keeps the first route's static imports free of the signed-in side.
 */
const page =
  <M,>(load: () => Promise<M>, pick: (module: M) => React.ComponentType) =>
  async () => {
    // The screens' own strings come with the first of them (i18n/screenStrings.ts), never with the sign-in page.
    const [module] = await Promise.all([load(), loadScreenStrings()]);
    return { Component: pick(module) };
  };

const noteRoute = page(
  () => import('../features/notes/NoteRoute'),
  (m) => m.NoteRoute,
);

/** The signed-in screens, inside the header frame. */
const signedIn: RouteObject[] = [
  {
    index: true,
    lazy: page(
      () => import('../features/dashboard/DashboardPage'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: '/project',
    lazy: page(
      () => import('../features/projects/ProjectListPage'),
      (m) => m.ProjectListPage,
    ),
  },
  {
    path: '/project/create',
    lazy: page(
      () => import('../features/projects/ProjectCreatePage'),
      (m) => m.ProjectCreatePage,
    ),
  },
  {
    path: '/project/:id',
    lazy: page(
      () => import('../features/projects/ProjectDetailPage'),
      (m) => m.ProjectDetailPage,
    ),
  },
  {
    path: '/project/:id/signatures',
    lazy: page(
      () => import('../features/signatures/ProjectSignaturesPage'),
      (m) => m.ProjectSignaturesPage,
    ),
  },
  {
    path: '/schema',
    lazy: page(
      () => import('../features/schemas/SchemaListPage'),
      (m) => m.SchemaListPage,
    ),
  },
  {
    path: '/schema/create',
    lazy: page(
      () => import('../features/schemas/SchemaEditorPage'),
      (m) => m.SchemaEditorPage,
    ),
  },
  {
    path: '/schema/:id',
    lazy: page(
      () => import('../features/schemas/SchemaEditorPage'),
      (m) => m.SchemaEditorPage,
    ),
  },
  {
    path: '/dropbox',
    lazy: page(
      () => import('../features/dropboxes/DropboxListPage'),
      (m) => m.DropboxListPage,
    ),
  },
  {
    path: '/dropbox/create',
    lazy: page(
      () => import('../features/dropboxes/DropboxCreatePage'),
      (m) => m.DropboxCreatePage,
    ),
  },
  {
    path: '/dropbox/:id',
    lazy: page(
      () => import('../features/dropboxes/DropboxDetailPage'),
      (m) => m.DropboxDetailPage,
    ),
  },
  {
    path: '/template',
    lazy: page(
      () => import('../features/templates/TemplateListPage'),
      (m) => m.TemplateListPage,
    ),
  },
  {
    path: '/template/note/:id',
    lazy: page(
      () => import('../features/templates/TemplateEditorPage'),
      (m) => m.TemplateEditorPage,
    ),
  },
  {
    path: '/account',
    lazy: page(
      () => import('../features/account/AccountPage'),
      (m) => m.AccountPage,
    ),
  },
  {
    path: '/api-docs',
    lazy: page(
      () => import('../features/apiDocs/ApiDocsPage'),
      (m) => m.ApiDocsPage,
    ),
  },
  {
    path: '/search',
    lazy: page(
      () => import('../features/search/SearchPage'),
      (m) => m.SearchPage,
    ),
  },
  // `/note/:id/history` too: NoteRoute tells them apart, so the first route carries no entry of its own for it.
  { path: '/note/:id/*', lazy: noteRoute },
  { path: '/editor/:id', lazy: noteRoute },
  {
    element: <RequireAdmin />,
    children: [
      {
        path: '/admin',
        lazy: page(
          () => import('../features/admin/UserListPage'),
          (m) => m.UserListPage,
        ),
      },
      {
        path: '/admin/audit',
        lazy: page(
          () => import('../features/audit/AuditPage'),
          (m) => m.AuditPage,
        ),
      },
      {
        path: '/admin/department',
        lazy: page(
          () => import('../features/admin/DepartmentPage'),
          (m) => m.DepartmentPage,
        ),
      },
      {
        path: '/admin/download',
        lazy: page(
          () => import('../features/exports/DownloadPage'),
          (m) => m.DownloadPage,
        ),
      },
      {
        path: '/admin/timestamps',
        lazy: page(
          () => import('../features/timestamps/TimestampAuthoritiesPage'),
          (m) => m.TimestampAuthoritiesPage,
        ),
      },
      {
        path: '/admin/webhooks',
        lazy: page(
          () => import('../features/webhooks/WebhooksPage'),
          (m) => m.WebhooksPage,
        ),
      },
      {
        path: '/admin/:id',
        lazy: page(
          () => import('../features/admin/UserEditPage'),
          (m) => m.UserEditPage,
        ),
      },
    ],
  },
];

/** What shows while the first screen's chunk loads on a fresh page load (a blank, busy page, no flash). */
function FirstLoad() {
  return <div className="first-load" aria-busy="true" data-testid="first-load" />;
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: FirstLoad,
    children: [
      {
        path: '/signin',
        element: (
          <RequireGuest>
            <SignInPage />
          </RequireGuest>
        ),
      },
      { path: '/login/okta/auth/callback', element: <SsoCallbackPage /> },
      { path: '/notFound', element: <NotFoundPage /> },
      { path: '/error', element: <ServerErrorPage /> },
      // The living style guide: the real screens on fixed sample data, open without signing in.
      {
        path: '/publishing/:page?',
        lazy: page(
          () => import('../features/publishing/PublishingRoute'),
          (m) => m.PublishingRoute,
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: page(
              () => import('./Layout'),
              (m) => m.Layout,
            ),
            children: signedIn,
          },
        ],
      },
      { path: '*', element: <Navigate to="/notFound" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
