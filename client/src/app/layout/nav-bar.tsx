import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { LogIn, LogOut, Menu, X } from 'lucide-react';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { useAuth, type AuthStatus } from '@/api/auth';
import { useReviewCount } from '@/api/review';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { APP_NAV_ITEMS, type NavItem } from './nav-items';

/** The clips waiting for review beside the Review link; nothing while there are none. */
function ReviewBadge() {
  const { data } = useReviewCount(true);
  const count = data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span className="ml-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs font-semibold text-brand-foreground tabular-nums" data-testid="review-badge">
      {count}
      <span className="sr-only"> waiting</span>
    </span>
  );
}

function NavLabel({ item }: { item: NavItem }) {
  return (
    <>
      {item.label}
      {item.badge === 'review' && <ReviewBadge />}
    </>
  );
}

function desktopLinkClass({ isActive }: { isActive: boolean }): string {
  return cn(
    'flex items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-accent text-foreground' : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
  );
}

function mobileLinkClass({ isActive }: { isActive: boolean }): string {
  return cn(
    'flex items-center gap-3 rounded-md px-3 py-2.5 text-base font-medium transition-colors',
    isActive ? 'bg-accent text-foreground' : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
  );
}

function DesktopNav({ status, onSignOut }: { status: AuthStatus; onSignOut: () => void }) {
  if (status === 'unknown') return null;
  if (status === 'anonymous') {
    return (
      <Button asChild size="sm" className="hidden md:inline-flex">
        <Link to={paths.login}>
          <LogIn /> Login
        </Link>
      </Button>
    );
  }
  return (
    <nav aria-label="Main" className="hidden items-center gap-1 xl:flex">
      {APP_NAV_ITEMS.map((item) => (
        <NavLink key={item.to} to={item.to} end={item.end} className={desktopLinkClass}>
          <item.icon className="size-4" aria-hidden="true" />
          <NavLabel item={item} />
        </NavLink>
      ))}
      <Button variant="ghost" size="sm" className="ml-2 text-sm text-muted-foreground" onClick={onSignOut}>
        <LogOut /> Logout
      </Button>
    </nav>
  );
}

function MobileMenu({ status, onSignOut, id }: { status: AuthStatus; onSignOut: () => void; id: string }) {
  return (
    <div id={id} className={cn('border-t bg-background', foldedOnly(status))}>
      <nav aria-label="Mobile" className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
        {status === 'authenticated' ? (
          <>
            {APP_NAV_ITEMS.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className={mobileLinkClass}>
                <item.icon className="size-5" aria-hidden="true" />
                <NavLabel item={item} />
              </NavLink>
            ))}
            <button type="button" onClick={onSignOut} className={mobileLinkClass({ isActive: false })}>
              <LogOut className="size-5" aria-hidden="true" />
              Logout
            </button>
          </>
        ) : (
          <NavLink to={paths.login} className={mobileLinkClass}>
            <LogIn className="size-5" aria-hidden="true" />
            Login
          </NavLink>
        )}
      </nav>
    </div>
  );
}

const MOBILE_MENU_ID = 'mobile-menu';

/**
 * Where the menu button and its menu show: the signed-in links fit one row only from the xl
 * breakpoint (a tablet or small laptop would push them off the side); a visitor's single Login
 * link fits from md.
 */
function foldedOnly(status: AuthStatus): string {
  return status === 'authenticated' ? 'xl:hidden' : 'md:hidden';
}

/** Sticky top bar; below the md breakpoint its links fold into a hamburger menu. */
export function NavBar() {
  const { status, signOut } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  // Following a link closes the menu, whichever link it was.
  useEffect(() => setMenuOpen(false), [location.pathname, location.hash]);

  const handleSignOut = () => {
    setMenuOpen(false);
    void signOut();
  };

  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to={status === 'authenticated' ? paths.app.dashboard : paths.home} aria-label="Clipshift home">
          <BrandLogo />
        </Link>
        <div className="flex items-center gap-1">
          <DesktopNav status={status} onSignOut={handleSignOut} />
          <ThemeToggle />
          {status !== 'unknown' && (
            <Button
              variant="ghost"
              size="icon"
              className={foldedOnly(status)}
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={MOBILE_MENU_ID}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X className="size-5" /> : <Menu className="size-5" />}
            </Button>
          )}
        </div>
      </div>
      {menuOpen && <MobileMenu id={MOBILE_MENU_ID} status={status} onSignOut={handleSignOut} />}
    </header>
  );
}
