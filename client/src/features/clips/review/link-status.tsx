import { Clock, Link2 } from 'lucide-react';
import type { ApprovalLinkState } from '@clipshift/shared';
import { formatDateTime } from '@/lib/format';

/** On a clip waiting in the inbox: its approval link is out, or expired with no answer. */
export function LinkStatus({ link }: { link: ApprovalLinkState }) {
  if (link.status === 'open') {
    return (
      <p className="flex items-start gap-2 text-sm text-info-soft-foreground" data-testid="approval-link-status">
        <Link2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>Approval link sent {formatDateTime(link.created_at)}: waiting for an answer until {formatDateTime(link.expires_at)}.</span>
      </p>
    );
  }
  if (link.status === 'expired') {
    return (
      <p className="flex items-start gap-2 text-sm text-warning-soft-foreground" data-testid="approval-link-status">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>The approval link expired on {formatDateTime(link.expires_at)} with no answer: share the clip again for a new one.</span>
      </p>
    );
  }
  return null;
}
