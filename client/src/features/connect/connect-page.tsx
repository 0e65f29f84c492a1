import { Link } from 'react-router-dom';
import { KeyRound } from 'lucide-react';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { paths } from '@/lib/paths';
import { PasskeyForm } from './passkey-form';
import { useGuestConnect } from './use-guest-connect';
import { VerifiedPanel } from './verified-panel';

function LoginHint() {
  return (
    <p className="w-full text-center text-sm text-muted-foreground">
      Already have an account?{' '}
      <Link to={paths.login} className="font-medium text-brand-text underline-offset-4 hover:underline">
        Log in
      </Link>
    </p>
  );
}

/** /connect: a guest with someone's passkey connects a TikTok, YouTube, Instagram or Facebook account to that person's Clipshift account. */
export function ConnectPage() {
  const guest = useGuestConnect();
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-muted/40 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md shadow-sm">
        <CardHeader className="items-center text-center">
          <div className="mb-2 flex size-11 items-center justify-center rounded-full bg-brand-soft">
            <KeyRound className="size-5 text-brand-text" aria-hidden="true" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Connect your account</h1>
          <CardDescription>
            Enter the 6-character passkey you were given to connect your TikTok, YouTube, Instagram or Facebook account to
            their Clipshift account. No Clipshift account is needed.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {guest.verified ? (
            <VerifiedPanel
              passkey={guest.passkey}
              connecting={guest.connecting}
              onConnect={guest.connect}
              onUseDifferent={guest.startOver}
            />
          ) : (
            <PasskeyForm
              chars={guest.chars}
              onChange={guest.change}
              onSubmit={guest.submit}
              verifying={guest.verifying}
              refused={guest.refused}
              throttled={guest.throttled}
              error={guest.submitError}
            />
          )}
        </CardContent>
        <CardFooter>
          <LoginHint />
        </CardFooter>
      </Card>
    </div>
  );
}
