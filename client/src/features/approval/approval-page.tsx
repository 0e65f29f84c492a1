import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Check, CircleAlert, CircleCheck, CircleX, LinkIcon, LoaderCircle, X } from 'lucide-react';
import { APPROVAL_LINK_PROBLEMS, APPROVAL_NOTE_MAX_LENGTH, approvalLinkProblemOf, PLATFORM_LABELS, type ApprovalPage as ApprovalPageData } from '@clipshift/shared';
import { useAnswerApproval, useApprovalPage } from '@/api/approval';
import { isNetworkError, NETWORK_ERROR, serverMessage } from '@/api/errors';
import { PlatformIcon } from '@/components/platform-icon';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { formatDate, formatDateTime, plural } from '@/lib/format';
import { cn } from '@/lib/utils';

/*
 * /approve/:token: someone without an account (usually the streamer) was sent this link by the
 * clip's owner. It shows the clip as it will be posted and takes one answer. Built for a phone.
 */

/** The page's frame: one card, centred, the full width of a phone. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-muted/40 px-3 py-6 sm:px-4 sm:py-12">
      <Card className="w-full max-w-md shadow-sm" data-testid="approval-card">
        {children}
      </Card>
    </div>
  );
}

type Tone = 'success' | 'danger' | 'warning' | 'brand';

const TONE_CLASSES: Record<Tone, string> = {
  success: 'bg-success-soft text-success-icon',
  danger: 'bg-danger-soft text-danger-icon',
  warning: 'bg-warning-soft text-warning-soft-foreground',
  brand: 'bg-brand-soft text-brand-text',
};

/** A headline with its round icon, and a line under it. */
function Heading({ icon: Icon, tone, title, children }: { icon: typeof Check; tone: Tone; title: string; children?: ReactNode }) {
  return (
    <CardHeader className="items-center text-center">
      <div className={cn('mb-2 flex size-11 items-center justify-center rounded-full', TONE_CLASSES[tone])}>
        <Icon className="size-5" aria-hidden="true" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-balance">{title}</h1>
      {children && <div className="text-sm text-muted-foreground">{children}</div>}
    </CardHeader>
  );
}

/** A link that cannot be used (not valid, expired, used, replaced), or a page that failed to load. */
function Problem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const message = serverMessage(error);
  const problem = approvalLinkProblemOf(message);
  if (problem) {
    const { title, detail } = APPROVAL_LINK_PROBLEMS[problem];
    return (
      <Heading icon={problem === 'invalid' ? CircleX : CircleAlert} tone={problem === 'invalid' ? 'danger' : 'warning'} title={title}>
        <p>{detail}</p>
      </Heading>
    );
  }
  return (
    <>
      <Heading icon={CircleAlert} tone="danger" title="This page could not be loaded">
        <p>{isNetworkError(error) ? NETWORK_ERROR : (message ?? 'Something went wrong.')}</p>
      </Heading>
      <CardContent className="flex justify-center">
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      </CardContent>
    </>
  );
}

/** What was answered through the link: shown once answered, whoever opens it again. */
function Answered({ page, justNow }: { page: ApprovalPageData; justNow: boolean }) {
  const approved = page.status === 'approved';
  const when = page.answered_at ? formatDateTime(page.answered_at) : null;
  const title = justNow ? (approved ? 'Approved. Thank you!' : 'Rejected. Thank you!') : APPROVAL_LINK_PROBLEMS.used.title;
  return (
    <>
      <Heading icon={approved ? CircleCheck : CircleX} tone={approved ? 'success' : 'danger'} title={title}>
        <p data-testid="approval-answer">
          {approved ? `“${page.title}” was approved` : `“${page.title}” was rejected`}
          {when ? ` on ${when}` : ''}. {approved ? 'It will be posted to the accounts it was shared with.' : 'It will not be posted.'}
        </p>
      </Heading>
      {page.note && (
        <CardContent>
          <figure className="rounded-md border bg-muted/50 p-3 text-sm">
            <figcaption className="mb-1 font-medium">Note left for the owner</figcaption>
            <blockquote className="break-words whitespace-pre-wrap">{page.note}</blockquote>
          </figure>
        </CardContent>
      )}
    </>
  );
}

/** The clip's video, tall for a vertical clip, never wider than the phone nor taller than most of it. */
function LinkVideo({ page }: { page: ApprovalPageData }) {
  if (!page.video_url) return null;
  const vertical = page.format_type === 'vertical';
  return (
    // eslint-disable-next-line jsx-a11y-x/media-has-caption -- a clip as it came from Twitch has no caption file to point a <track> at (decision 0029).
    <video
      src={page.video_url}
      poster={page.thumbnail_url ?? undefined}
      controls
      playsInline
      preload="metadata"
      aria-label={`Video: ${page.title}`}
      className={cn('mx-auto block rounded-lg bg-black object-contain', vertical ? 'aspect-[9/16] max-h-[65vh] w-auto max-w-full' : 'aspect-video w-full')}
    />
  );
}

/** The clip as it will be posted: video, description, accounts; Approve, or Reject with a note. */
function OpenLink({ page, answer }: { page: ApprovalPageData; answer: ReturnType<typeof useAnswerApproval> }) {
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState('');
  const busy = answer.approving || answer.rejecting;
  const failure = answer.error ? (serverMessage(answer.error) ?? NETWORK_ERROR) : null;
  const noteTooLong = note.length > APPROVAL_NOTE_MAX_LENGTH;
  const descriptionId = `${id}-description`;
  const noteRef = useRef<HTMLTextAreaElement>(null);
  // Reject asks for the note next: the keyboard opens on it.
  useEffect(() => {
    if (rejecting) noteRef.current?.focus();
  }, [rejecting]);
  return (
    <>
      <Heading icon={LinkIcon} tone="brand" title="Approve this clip?">
        <p>
          A clip of <strong className="font-medium text-foreground">{page.streamer}</strong> is ready to post and waits for your answer.
        </p>
      </Heading>
      <CardContent className="space-y-5">
        <LinkVideo page={page} />
        <section className="space-y-1.5" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
            {page.title}
          </h2>
          <h3 id={descriptionId} className="text-sm font-medium">
            Description
          </h3>
          <p className="rounded-md border bg-muted/50 p-3 text-sm break-words whitespace-pre-wrap" aria-labelledby={descriptionId}>
            {page.description}
          </p>
        </section>
        <section className="space-y-1.5" aria-labelledby={`${id}-accounts`}>
          <h3 id={`${id}-accounts`} className="text-sm font-medium">
            Will be posted to {plural(page.accounts.length, 'account')}
          </h3>
          <ul className="divide-y rounded-md border">
            {page.accounts.map((account) => (
              <li key={`${account.platform}:${account.name}`} className="flex min-w-0 items-center gap-2 px-3 py-2 text-sm">
                <PlatformIcon platform={account.platform} decorative />
                <span className="min-w-0 truncate font-medium">{account.name}</span>
                <span className="ml-auto shrink-0 text-muted-foreground">{PLATFORM_LABELS[account.platform]}</span>
              </li>
            ))}
          </ul>
        </section>
        {rejecting ? (
          <div className="space-y-3 rounded-md border p-3">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-note`}>Note for the owner (optional)</Label>
              <Textarea
                ref={noteRef}
                id={`${id}-note`}
                rows={3}
                value={note}
                disabled={busy}
                placeholder="Why not, or what to change"
                aria-invalid={noteTooLong || undefined}
                aria-describedby={`${id}-note-count`}
                onChange={(event) => setNote(event.target.value)}
              />
              <p id={`${id}-note-count`} className={cn('text-xs', noteTooLong ? 'text-danger-soft-foreground' : 'text-muted-foreground')}>
                {note.length}/{APPROVAL_NOTE_MAX_LENGTH}
              </p>
            </div>
            <div className="grid gap-2 sm:grid-cols-2">
              <Button variant="destructive" disabled={busy || noteTooLong} onClick={() => answer.reject(note.trim() || undefined)}>
                {answer.rejecting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
                Reject clip
              </Button>
              <Button variant="outline" disabled={busy} onClick={() => setRejecting(false)}>
                Back
              </Button>
            </div>
          </div>
        ) : (
          <div className="grid gap-2 sm:grid-cols-2">
            <Button variant="brand" size="lg" disabled={busy} onClick={answer.approve}>
              {answer.approving ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
              Approve
            </Button>
            <Button variant="outline" size="lg" disabled={busy} onClick={() => setRejecting(true)}>
              <X aria-hidden="true" />
              Reject
            </Button>
          </div>
        )}
        {failure && (
          <p role="alert" className="rounded-md border border-danger-border bg-danger-soft p-3 text-sm text-danger-soft-foreground">
            {failure}
          </p>
        )}
        <p className="text-center text-xs text-muted-foreground">This link takes one answer and works until {formatDate(page.expires_at)}.</p>
      </CardContent>
    </>
  );
}

/** /approve/:token */
export function ApprovalPage() {
  const token = useParams().token ?? '';
  const page = useApprovalPage(token);
  const answer = useAnswerApproval(token);
  const status = page.data?.status;
  // The answer's confirmation replaces a long page the phone was scrolled down: show it from the top.
  useEffect(() => {
    if (status && status !== 'open') window.scrollTo({ top: 0 });
  }, [status]);
  return (
    <Frame>
      {page.isLoading ? (
        <CardContent className="space-y-4 pt-6" aria-busy="true" aria-label="Loading the clip">
          <Skeleton className="mx-auto h-8 w-2/3" />
          <Skeleton className="mx-auto aspect-[9/16] h-[50vh]" />
        </CardContent>
      ) : page.isError ? (
        <Problem error={page.error} onRetry={() => void page.refetch()} />
      ) : page.data && page.data.status !== 'open' ? (
        <Answered page={page.data} justNow={answer.answered !== null} />
      ) : page.data ? (
        <OpenLink page={page.data} answer={answer} />
      ) : null}
    </Frame>
  );
}
