import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@clipshift/shared';
import { HttpStatusError, toastFailure } from './errors';
import { STUDIO_IMAGE_KEY, useObjectUrl } from './studio';
import { apiFetch } from './trpc';

/*
 * A streamer's logo: PUT/GET/DELETE /api/streamers/{name}/logo, the one route whose body is an
 * image rather than JSON, so it is called with fetch rather than through tRPC.
 */

export const logoMessages = {
  uploadFailed: 'Failed to upload the logo',
  removeFailed: 'Failed to remove the logo',
  offline: 'The server could not be reached',
  /** The server's own words for a file over the limit (413). */
  tooLarge: `A logo is at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB`,
  wrongType: 'A logo is a PNG or JPEG image',
} as const;

const logoUrl = (name: string) => `/api/streamers/${encodeURIComponent(name)}/logo`;
const logoKey = (name: string) => ['streamer-logo', name.toLowerCase()] as const;

/** Why this file cannot be the logo, said before it is sent; null when it may go. */
export function logoFileProblem(file: Pick<File, 'size' | 'type'>): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return logoMessages.wrongType;
  if (file.size > LOGO_MAX_BYTES) return logoMessages.tooLarge;
  return null;
}

/** The streamer's logo as a picture to show; null while loading and when it has none (404). */
export function useStreamerLogo(name: string) {
  const query = useQuery({
    queryKey: logoKey(name),
    queryFn: async ({ signal }): Promise<Blob | null> => {
      try {
        return await (await apiFetch(logoUrl(name), { signal })).blob();
      } catch (error) {
        if (error instanceof HttpStatusError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });
  const url = useObjectUrl(query.data ?? undefined);
  return { url: query.data ? url : null, loading: query.isPending, missing: query.data === null, error: query.isError ? query.error : null };
}

async function sendLogo(name: string, init: RequestInit): Promise<string> {
  const response = await apiFetch(logoUrl(name), init);
  const body = (await response.json()) as { message?: string };
  return body.message ?? '';
}

/** Uploads (or replaces) and removes the logo; each says how it went in a toast. */
export function useLogoActions(name: string) {
  const queryClient = useQueryClient();
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: logoKey(name) });
    // Previews draw the logo: those made with the old one are out of date.
    void queryClient.invalidateQueries({ queryKey: [STUDIO_IMAGE_KEY] });
  };
  const upload = useMutation({
    mutationFn: (file: File) => sendLogo(name, { method: 'PUT', headers: { 'Content-Type': file.type }, body: file }),
    onSuccess: (message) => toast.success(message || 'Logo saved'),
    onError: (error) => toastFailure(error, { fallback: logoMessages.uploadFailed, offline: logoMessages.offline, prefixed: true }),
    onSettled: changed,
  });
  const remove = useMutation({
    mutationFn: () => sendLogo(name, { method: 'DELETE' }),
    onSuccess: (message) => toast.success(message || 'Logo removed'),
    onError: (error) => toastFailure(error, { fallback: logoMessages.removeFailed, offline: logoMessages.offline, prefixed: true }),
    onSettled: changed,
  });
  return { upload: upload.mutate, remove: () => remove.mutate(), busy: upload.isPending || remove.isPending };
}
