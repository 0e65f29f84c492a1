import { Outlet, useLocation } from 'react-router-dom';
import { SiteFooter } from '@/components/site-footer';
import { Toaster } from '@/components/ui/sonner';
import { AuthProvider } from '@/api/auth';
import { useDocumentTitle } from '../use-document-title';
import { useScrollOnNavigate } from '../use-scroll-on-navigate';
import { NavBar } from './nav-bar';

function isAppPath(pathname: string): boolean {
  return pathname === '/app' || pathname.startsWith('/app/');
}

/** Every page: navigation bar, the page, the public footer outside /app, and the toasts. */
export function RootLayout() {
  const { pathname } = useLocation();
  useScrollOnNavigate();
  useDocumentTitle();
  const inApp = isAppPath(pathname);
  return (
    <AuthProvider>
      <div className="flex min-h-screen flex-col">
        <NavBar />
        <main className="flex-1">
          <Outlet />
        </main>
        {!inApp && <SiteFooter />}
      </div>
      <Toaster />
    </AuthProvider>
  );
}

