import { CircleCheck, CircleX, MessageSquareText } from 'lucide-react';
import type { ApprovalLinkState } from '@clipshift/shared';
import { StatusBadge } from '@/components/status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';

/**
 * What the streamers answered through approval links lately: an approved clip was posted as if
 * approved here (it left the inbox for the queue), a rejected one stays in the library.
 */
export function LinkAnswers({ links }: { links: readonly ApprovalLinkState[] }) {
  const answered = links.filter((link) => link.status === 'approved' || link.status === 'rejected');
  if (answered.length === 0) return null;
  return (
    <Card data-testid="link-answers">
      <CardHeader>
        <CardTitle>Answers by link</CardTitle>
        <CardDescription>Approved clips were queued for their accounts as if approved here; rejected ones stay in your library.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {answered.map((link) => (
            <li key={link.clip_id} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:gap-3" data-testid="link-answer">
              <StatusBadge
                tone={link.status === 'approved' ? 'success' : 'danger'}
                icon={link.status === 'approved' ? CircleCheck : CircleX}
                label={link.status === 'approved' ? 'Approved by link' : 'Rejected by link'}
              />
              <div className="min-w-0 space-y-1">
                <p className="text-sm font-medium break-words">{link.title}</p>
                <p className="text-xs text-muted-foreground">{link.answered_at ? formatDateTime(link.answered_at) : null}</p>
                {link.note && (
                  <p className="flex items-start gap-1.5 text-sm break-words whitespace-pre-wrap">
                    <MessageSquareText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-label="Note" />
                    {link.note}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
