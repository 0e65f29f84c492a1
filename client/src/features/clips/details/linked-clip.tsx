import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Clip } from '@clipshift/shared';
import { useClipDetails } from '@/api/clips';
import { useLatestRef } from '@/lib/use-latest-ref';
import { CLIP_PARAM } from '@/lib/paths';

interface LoaderProps {
  clipId: string;
  onLoaded: (clip: Clip) => void;
  onDone: () => void;
}

/** Loads the named clip's details; a failure is toasted by the details query. */
function LinkedClipLoader({ clipId, onLoaded, onDone }: LoaderProps) {
  const details = useClipDetails(clipId, onDone);
  const loaded = details.data;
  const onLoadedRef = useLatestRef(onLoaded);
  const onDoneRef = useLatestRef(onDone);
  useEffect(() => {
    if (!loaded) return;
    onLoadedRef.current(loaded);
    onDoneRef.current();
  }, [loaded, onLoadedRef, onDoneRef]);
  return null;
}

/**
 * A link naming a clip (/app/clips?clip=ID, e.g. from a moment) opens its details once they load.
 * The parameter then leaves the address, so closing the details and reloading do not reopen them.
 */
export function LinkedClip({ open }: { open: (clip: Clip) => void }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const clipId = searchParams.get(CLIP_PARAM);
  if (!clipId) return null;
  const forget = () =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CLIP_PARAM);
        return next;
      },
      { replace: true },
    );
  return <LinkedClipLoader key={clipId} clipId={clipId} onLoaded={open} onDone={forget} />;
}
