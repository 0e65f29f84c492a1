import { plural } from '@/lib/format';
import { LoaderCircle, Plus, ShieldCheck, Ticket } from 'lucide-react';
import { INVITE_DAYS_SETTINGS_PAGE } from '@clipshift/shared';
import { useSession } from '@/api/auth';
import { LOAD_INVITES_FAILED, useGenerateInvite, useInviteCodes } from '@/api/invites';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { InviteCodesTable } from './invite-codes-table';

function InviteCodesList() {
  const invites = useInviteCodes();
  if (invites.isPending) return <Skeleton className="h-32 w-full" />;
  if (invites.isError) {
    return (
<LoadFailed icon={Ticket} title={LOAD_INVITES_FAILED} onRetry={() => void invites.refetch()} />
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
  const session = useSession();
  const isAdmin = session.data?.authenticated === true && session.data.user.is_admin;
  const generate = useGenerateInvite();

  return (
    <Card role="region" aria-labelledby="settings-invites-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-invites-title">Invite Codes</CardTitle>
          <CardDescription>
            Single-use codes that let new people register.
            {/* Only administrators make codes, so only they are told how long one lasts. */}
            {isAdmin && ` Codes made here are valid for ${plural(INVITE_DAYS_SETTINGS_PAGE, 'day')}.`}
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
