import { Link } from 'react-router-dom';
import { KeyRound } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/lib/paths';

/** Placeholder: the guest passkey flow (six boxes, verify, Connect TikTok) arrives with the next issue. */
export function ConnectPage() {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-muted/40 px-4 py-12 sm:items-center">
      <Card className="w-full max-w-md text-center shadow-sm">
        <CardHeader className="items-center">
          <div className="mb-2 flex size-11 items-center justify-center rounded-full bg-brand-soft">
            <KeyRound className="size-5 text-brand" aria-hidden="true" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Connect your TikTok account</h1>
          <CardDescription>
            Connecting with a guest passkey is coming soon. Ask the person who shared this link to try again shortly.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted-foreground">
            Already have an account?{' '}
            <Link to={paths.login} className="font-medium text-brand underline-offset-4 hover:underline">
              Log in
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
