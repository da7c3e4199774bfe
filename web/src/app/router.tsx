import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { LoadingScreen } from '../components/dialogs/LoadingScreen';
import { REPORT_ROUTES } from '../features/reports/routes';
import { RequireAuth, VersionParam } from './guard';
import { RouteError } from './RouteError';

// Every screen is its own chunk (spec §2.1: all screens are loaded lazily).
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const Shell = lazy(() => import('./shell/Shell'));
const HomePage = lazy(() => import('../features/home/HomePage'));
const NotFoundPage = lazy(() => import('../features/errors/NotFoundPage'));
const ResourceRoute = lazy(() => import('./ResourceRoute'));
const StockCardPage = lazy(() => import('../features/stock/StockCardPage'));
const FreeReceiptPage = lazy(() => import('../features/finance/FreeReceiptPage'));
const ReportRoute = lazy(() => import('../features/reports/ReportRoute'));
const RegisterScreenRoute = lazy(() => import('./ResourceRoute').then((m) => ({ default: m.RegisterScreenRoute })));

function Root() {
  return (
    <>
      <VersionParam />
      <Suspense fallback={<LoadingScreen overlay />}>
        <Outlet />
      </Suspense>
    </>
  );
}

export const routes = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      // No navbar on the login screen.
      { path: '/login', element: <LoginPage /> },
      {
        element: (
          <RequireAuth>
            <Shell />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <HomePage /> },
          { path: '404', element: <NotFoundPage /> },
          // The stock card takes precedence over the generic register routes below.
          { path: 'consultaprodutos/alterar', element: <StockCardPage /> },
          // A single route (spec §2.3): the free-form receipt is no register.
          { path: 'reciboavulso', element: <FreeReceiptPage /> },
          // Single routes (spec §2.3) that are screens of their own over a finance register.
          { path: 'conciliacaobancaria', element: <RegisterScreenRoute register="conciliacaobancaria" /> },
          { path: 'movimentodiario', element: <RegisterScreenRoute register="movdiario" /> },
          { path: 'integracaodominio', element: <RegisterScreenRoute register="integracaodominio" /> },
          // The messages (IndexWhatsapp, the user menu's WHATSAPP): the `whatsapp` register's queue.
          { path: 'whatsapp', element: <RegisterScreenRoute register="whatsapp" /> },
          // Report routes (spec §2.4): the report the server defines for the path (its ROTA);
          // without one, the path goes where it went before (the register routes below).
          ...REPORT_ROUTES.map((path) => ({
            path,
            element: <ReportRoute fallback={<ResourceRoute />} />,
          })),
          // Registers and documents (/{path}, /inserir, /alterar) come from
          // Query.resourceMetas (a meta with `document` is a document); anything else ends on /404.
          { path: '*', element: <ResourceRoute /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
