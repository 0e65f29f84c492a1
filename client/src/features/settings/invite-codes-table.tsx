import { Copy } from 'lucide-react';
import { formatInviteCode, inviteDisplayStatus, type InviteCode, type InviteDisplayStatus } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useCopyWithToast } from './use-copy';

const INVITE_COPIED = 'Invite code copied to clipboard!';
const INVITE_COPY_FAILED = 'Failed to copy invite code';

const STATUS_VARIANT: Record<InviteDisplayStatus, NonNullable<BadgeProps['variant']>> = {
  Active: 'success',
  Used: 'muted',
  Expired: 'warning',
};

function InviteRow({ invite, now, onCopy }: { invite: InviteCode; now: Date; onCopy: (code: string) => void }) {
  const code = formatInviteCode(invite.code);
  const status = inviteDisplayStatus(invite, now);
  return (
    <TableRow data-testid="invite-row" aria-label={code}>
      <TableCell className="font-mono text-sm font-medium" data-testid="invite-code">
        {code}
      </TableCell>
      <TableCell label="Status">
        <Badge variant={STATUS_VARIANT[status]}>{status}</Badge>
      </TableCell>
      <TableCell label="Created" className="text-muted-foreground">
        {formatDateTime(invite.created_at)}
      </TableCell>
      <TableCell label="Expires" className="text-muted-foreground">
        {formatDateTime(invite.expires_at)}
      </TableCell>
      <TableCell label="Used By">{invite.used_by_username ?? <span className="text-muted-foreground">—</span>}</TableCell>
      <TableCell className="text-right max-md:justify-start">
        <Button variant="ghost" size="sm" aria-label={`Copy invite code ${code}`} onClick={() => onCopy(code)}>
          <Copy /> Copy
        </Button>
      </TableCell>
    </TableRow>
  );
}

export function InviteCodesTable({ invites }: { invites: readonly InviteCode[] }) {
  const copy = useCopyWithToast(INVITE_COPIED, INVITE_COPY_FAILED);
  const now = new Date();
  return (
    <div className="rounded-lg border">
      <Table stacked aria-label="Invite codes">
        <TableHeader>
          <TableRow>
            <TableHead>Code</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>Expires</TableHead>
            <TableHead>Used By</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {invites.map((invite) => (
            <InviteRow key={invite.id} invite={invite} now={now} onCopy={(code) => void copy(code)} />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
