import { toast } from 'sonner';
import { INVITE_LIST_LIMIT } from '@clipshift/shared';
import { plural } from '@/lib/format';
import { describeError, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const LOAD_INVITES_FAILED = 'Failed to load invite codes';

/** The administrator's invite codes, newest first. */
export function useInviteCodes() {
  const query = trpc.invites.list.useQuery({ limit: INVITE_LIST_LIMIT });
  useLoadErrorToast(query, LOAD_INVITES_FAILED);
  return query;
}

/** Generates a code; the list and Recent Logs (generating is logged) reload without waiting. */
export function useGenerateInvite() {
  const utils = trpc.useUtils();
  return trpc.invites.generate.useMutation({
    onSuccess: (invite) => {
      toast.success(`Invite code generated successfully! Valid for ${plural(invite.days_valid, 'day')}.`);
      void utils.invites.list.invalidate();
      void utils.logs.list.invalidate();
    },
    onError: (error) => {
      toast.error(`Failed to generate invite code: ${describeError(error)}`);
    },
  });
}
