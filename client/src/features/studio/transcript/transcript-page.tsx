import { Link, useParams } from 'react-router-dom';
import { ArrowLeft, Film } from 'lucide-react';
import { clipMessages, useFreshClipDetails } from '@/api/clips';
import { loadFailureDescription } from '@/api/errors';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/lib/paths';
import { TranscriptEditor } from './transcript-editor';

/**
 * The transcript editor on its own: a direct way to a clip's words until the studio page, which
 * shows the same editor beside the clip's other settings, links here or replaces it.
 */
export function TranscriptPage() {
  const { clipId = '' } = useParams();
  const details = useFreshClipDetails(clipId);
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-3">
        <Link to={paths.app.clips}>
          <ArrowLeft aria-hidden="true" />
          Clips
        </Link>
      </Button>
      <PageHeader title="Edit transcript" description={details.data?.title ?? 'Fix the words the next render burns into the clip.'} />
      {details.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : details.isError ? (
        <LoadFailed icon={Film} title={clipMessages.detailsFailed} description={loadFailureDescription(details.error)} onRetry={() => void details.refetch()} />
      ) : (
        <TranscriptEditor clipId={clipId} durationSec={details.data.duration} />
      )}
    </div>
  );
}
