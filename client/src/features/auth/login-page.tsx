import { Link, useLocation } from 'react-router-dom';
import type { RegistrationStatus } from '@clipshift/shared';
import { BrandMark } from '@/components/brand-logo';
import { DelayedNavigate } from '@/components/delayed-navigate';
import { LoadingView } from '@/components/loading-view';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth, useRegistrationStatus } from '@/api/auth';
import { landingSectionPath, landingSections, paths, rememberedPath } from '@/lib/paths';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

/** Tabs appear only when someone may register (spec section 2). */
function registrationOpen(status: RegistrationStatus | undefined): boolean {
  return status !== undefined && (status.enabled || status.invite_required);
}

function LegalLinks() {
  return (
    <p className="text-center text-xs leading-relaxed text-muted-foreground">
      By continuing you agree to our{' '}
      <Link to={paths.tos} className="font-medium text-foreground underline-offset-4 hover:underline">
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link to={paths.privacy} className="font-medium text-foreground underline-offset-4 hover:underline">
        Privacy Policy
      </Link>
      .
    </p>
  );
}

function LoginAndRegisterTabs({ status, onAuthenticated }: { status: RegistrationStatus; onAuthenticated: () => void }) {
  return (
    <>
      <CardHeader className="items-center text-center">
        <BrandMark className="mb-2 size-10" />
        <h1 className="text-2xl font-semibold tracking-tight">Welcome to Clipshift</h1>
        <CardDescription>Log in to your account or create a new one.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="login">
          <TabsList>
            <TabsTrigger value="login">Login</TabsTrigger>
            <TabsTrigger value="register">Register</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm onAuthenticated={onAuthenticated} />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm inviteRequired={status.invite_required} onAuthenticated={onAuthenticated} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </>
  );
}

function LoginOnly({ onAuthenticated, closed }: { onAuthenticated: () => void; closed: boolean }) {
  return (
    <>
      <CardHeader className="items-center text-center">
        <BrandMark className="mb-2 size-10" />
        <h1 className="text-2xl font-semibold tracking-tight">Login</h1>
        {closed && <CardDescription>Registration is currently closed.</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-4">
        <LoginForm onAuthenticated={onAuthenticated} />
        <p className="text-center text-sm text-muted-foreground">
          Don’t have an account?{' '}
          <Link
            to={landingSectionPath(landingSections.requestAccess)}
            className="font-medium text-brand-text underline-offset-4 hover:underline"
          >
            Request access
          </Link>
        </p>
      </CardContent>
    </>
  );
}

function LoginCardSkeleton() {
  return (
    <CardContent className="space-y-4" aria-hidden="true">
      <Skeleton className="mx-auto size-10 rounded-lg" />
      <Skeleton className="mx-auto h-7 w-48" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-9 w-full" />
      <Skeleton className="h-9 w-full" />
      <Skeleton className="h-9 w-full" />
    </CardContent>
  );
}

function LoginScreen({ onAuthenticated }: { onAuthenticated: () => void }) {
  const registration = useRegistrationStatus();
  const status = registration.data;
  // A failed status request falls back to login only: nobody is offered a form that cannot work.
  const body = registration.isPending ? (
    <LoginCardSkeleton />
  ) : status && registrationOpen(status) ? (
    <LoginAndRegisterTabs status={status} onAuthenticated={onAuthenticated} />
  ) : (
    <LoginOnly onAuthenticated={onAuthenticated} closed={status !== undefined} />
  );

  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-muted/40 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md shadow-sm">
        {body}
        <CardFooter className="justify-center">
          <LegalLinks />
        </CardFooter>
      </Card>
    </div>
  );
}

/** /login: signed-in visitors go on to the page they asked for, or the dashboard. */
export function LoginPage() {
  const { status, markAuthenticated } = useAuth();
  const location = useLocation();
  if (status === 'unknown') return <LoadingView label="Checking your session…" />;
  if (status === 'authenticated') {
    return <DelayedNavigate to={rememberedPath(location.state) ?? paths.app.dashboard} label="Signing you in…" />;
  }
  return <LoginScreen onAuthenticated={markAuthenticated} />;
}
