/**
 * A clip file's URL tied to the clip's version. The server rewrites the file in place (subtitles
 * render a new video under the same URL), and browsers keep media of a URL they have just played:
 * a new updated_at makes a new URL, so the new render is what plays and downloads.
 */
export function versionedUrl(url: string, updatedAt: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}v=${encodeURIComponent(updatedAt)}`;
}
