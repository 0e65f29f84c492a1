import { ShieldCheck, Ticket, Plus, LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { INVITE_DAYS_SETTINGS_PAGE, INVITE_LIST_LIMIT } from '@clipshift/shared';
import { EmptyState } from '@/components/empty-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError, trpc } from '@/lib/trpc';
import { useErrorToast } from '@/lib/use-error-toast';
import { InviteCodesTable } from './invite-codes-table';

export const LOAD_INVITES_FAILED = 'Failed to load invite codes';

function useGenerateInvite() {
  const utils = trpc.useUtils();
  return trpc.invites.generate.useMutation({
    onSuccess: (invite) => {
      toast.success(`Invite code generated successfully! Valid for ${invite.days_valid} days.`);
      void utils.invites.list.invalidate();
      // Generating is logged: Recent Logs shows it without waiting for a reload.
      void utils.logs.list.invalidate();
    },
    onError: (error) => {
      toast.error(`Failed to generate invite code: ${describeError(error)}`);
    },
  });
}

function InviteCodesList() {
  const invites = trpc.invites.list.useQuery({ limit: INVITE_LIST_LIMIT });
  useErrorToast(invites, LOAD_INVITES_FAILED);
  if (invites.isPending) return <Skeleton className="h-32 w-full" />;
  if (invites.isError) {
    return (
      <EmptyState
        icon={Ticket}
        title={LOAD_INVITES_FAILED}
        action={
          <Button variant="outline" onClick={() => void invites.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (invites.data.length === 0) {
    return <EmptyState icon={Ticket} title="No Invite Codes" description="Generate a code to let someone create an account." />;
  }
  return <InviteCodesTable invites={invites.data} />;
}

function AdminOnlyNote() {
  return (
    <Alert variant="info">
      <ShieldCheck aria-hidden="true" />
      <p>Only administrators can create and view invite codes. Ask your administrator if someone needs one.</p>
    </Alert>
  );
}

/** Administrators manage invite codes here; the settings page issues codes valid for 1 day. */
export function InviteCodesSection() {
  const session = trpc.auth.checkAuth.useQuery();
  const isAdmin = session.data?.authenticated === true && session.data.user.is_admin;
  const generate = useGenerateInvite();

  return (
    <Card role="region" aria-labelledby="settings-invites-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-invites-title">Invite Codes</CardTitle>
          <CardDescription>
            Single-use codes that let new people register. Codes made here are valid for {INVITE_DAYS_SETTINGS_PAGE} day.
          </CardDescription>
        </div>
        {isAdmin && (
          <CardAction>
            <Button
              variant="brand"
              size="sm"
              disabled={generate.isPending}
              onClick={() => generate.mutate({ days_valid: INVITE_DAYS_SETTINGS_PAGE })}
            >
              {generate.isPending ? <LoaderCircle className="animate-spin" /> : <Plus />}
              Generate Code
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {session.isPending ? <Skeleton className="h-20 w-full" /> : isAdmin ? <InviteCodesList /> : <AdminOnlyNote />}
      </CardContent>
    </Card>
  );
}
