import { toast } from 'sonner';
import type { CreatedToken, CreateTokenInput } from '@clipshift/shared';
import { toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const tokenMessages = {
  loadFailed: 'Failed to load API tokens',
  createFailed: 'Failed to create the API token',
  revokeFailed: 'Failed to revoke the API token',
  emptyTitle: 'No API tokens',
  emptyDescription: 'Create a token to let a script or an AI assistant use Clipshift on your behalf.',
} as const;

/** The user's API tokens (their values are never shown again after creation). */
export function useApiTokens() {
  const query = trpc.tokens.list.useQuery();
  useLoadErrorToast(query, tokenMessages.loadFailed);
  return query;
}

export function useCreateApiToken(onCreated: (created: CreatedToken) => void) {
  const utils = trpc.useUtils();
  return trpc.tokens.create.useMutation({
    onSuccess: (created) => {
      void utils.tokens.list.invalidate();
      onCreated(created);
    },
  });
}

export type { CreateTokenInput };

export function useRevokeApiToken(onRevoked: () => void) {
  const utils = trpc.useUtils();
  return trpc.tokens.delete.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      void utils.tokens.list.invalidate();
      onRevoked();
    },
    onError: (error) => toastFailure(error, { fallback: tokenMessages.revokeFailed, prefixed: true }),
  });
}
