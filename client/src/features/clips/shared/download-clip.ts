import { toast } from 'sonner';
import type { Clip } from '@clipshift/shared';
import { versionedUrl } from './clip-format';

/**
 * Starts the browser's own download of the MP4: the server names it {clip_id}.mp4 (spec section 7),
 * so the file goes to the downloads folder without passing through the page's memory.
 */
export function downloadClip(clip: Pick<Clip, 'video' | 'clip_id' | 'title' | 'updated_at'>): void {
  const link = document.createElement('a');
  link.href = versionedUrl(clip.video, clip.updated_at);
  link.download = `${clip.clip_id}.mp4`;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  toast.success(`Downloading clip: ${clip.title}`);
}
