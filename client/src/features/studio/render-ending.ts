import { isRenderActive, type ClipRender } from '@clipshift/shared';

/** What the page last saw of the clip's render, and of the clip's video version. */
export interface RenderMoment {
  render: ClipRender;
  /** The clip's updated_at: a finished render changes it, a stopped one does not. */
  updatedAt: string;
}

/**
 * How a render this page watched ended: a new video, a failure, or nothing to say (still going,
 * stopped by the user, or already over when the page opened).
 */
export function renderEnding(before: RenderMoment | null, now: RenderMoment): 'finished' | 'failed' | null {
  if (!before || !isRenderActive(before.render) || isRenderActive(now.render)) return null;
  if (now.render.status === 'failed') return 'failed';
  return now.updatedAt !== before.updatedAt ? 'finished' : null;
}
