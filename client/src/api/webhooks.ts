import { useState } from 'react';
import { toast } from 'sonner';
import { receiverAnswered, type CreateWebhookInput } from '@clipshift/shared';
import { describeError, toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const webhookMessages = {
  loadFailed: 'Failed to load webhooks',
  createFailed: 'Failed to add webhook',
  deleteFailed: 'Failed to delete webhook',
  deleteConfirm: 'Delete this webhook? It will no longer be notified.',
  emptyTitle: 'No webhooks',
  emptyDescription: 'Add a Discord, Slack or JSON webhook to hear about finished runs, posts and failures.',
} as const;

/** The user's webhooks (their secrets never come back). */
export function useWebhooks() {
  const query = trpc.webhooks.list.useQuery();
  useLoadErrorToast(query, webhookMessages.loadFailed);
  return query;
}

export function useCreateWebhook(onCreated: (secret: string | null) => void) {
  const utils = trpc.useUtils();
  return trpc.webhooks.create.useMutation({
    onSuccess: (created) => {
      toast.success('Webhook added');
      void utils.webhooks.list.invalidate();
      onCreated(created.secret);
    },
  });
}

export type { CreateWebhookInput };

export function useDeleteWebhook() {
  const utils = trpc.useUtils();
  const mutation = trpc.webhooks.delete.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      void utils.webhooks.list.invalidate();
    },
    onError: (error) => toastFailure(error, { fallback: webhookMessages.deleteFailed, prefixed: true }),
  });
  const remove = (id: string) => {
    if (window.confirm(webhookMessages.deleteConfirm)) mutation.mutate({ id });
  };
  return { remove, removingId: mutation.isPending ? mutation.variables?.id : undefined };
}

/** What the last Test of each webhook came back with, in words: "Receiver answered 204" or the failure. */
export interface TestOutcome {
  ok: boolean;
  text: string;
}

export function useTestWebhook() {
  const utils = trpc.useUtils();
  const [outcomes, setOutcomes] = useState<Record<string, TestOutcome>>({});
  const mutation = trpc.webhooks.test.useMutation({
    onSuccess: (result, input) => setOutcomes((all) => ({ ...all, [input.id]: { ok: result.status >= 200 && result.status < 300, text: receiverAnswered(result.status) } })),
    onError: (error, input) => setOutcomes((all) => ({ ...all, [input.id]: { ok: false, text: describeError(error) } })),
    // The webhook's last status changed either way.
    onSettled: () => void utils.webhooks.list.invalidate(),
  });
  return {
    test: (id: string) => mutation.mutate({ id }),
    testingId: mutation.isPending ? mutation.variables?.id : undefined,
    outcomes,
  };
}
