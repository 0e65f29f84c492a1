import { generateInviteInput, generatedInvite, inviteCode, listInvitesInput } from '@clipshift/shared';
import { z } from 'zod';
import { recordLog } from '../../domains/logs/service.ts';
import { adminProcedure, router, validated } from '../trpc.ts';
import { cleanupInvites, createInvite, listInvites } from '../../domains/invites/service.ts';
import { usernamesByIds } from '../../domains/auth/service.ts';

export const invitesRouter = router({
  generate: adminProcedure
    .input(generateInviteInput)
    .output(validated(generatedInvite))
    .mutation(async ({ ctx, input }) => {
      const invite = await createInvite(ctx.deps.db, ctx.user.id, input.days_valid);
      await recordLog(ctx.deps.db, ctx.deps.logger, {
        level: 'INFO',
        logger: 'invites',
        message: `${ctx.user.username} generated an invite code valid for ${input.days_valid} day${input.days_valid === 1 ? '' : 's'}`,
        userId: ctx.user.id,
      });
      return invite;
    }),
  list: adminProcedure
    .input(listInvitesInput)
    .output(validated(z.array(inviteCode)))
    .query(async ({ ctx, input }) => {
      const invites = await listInvites(ctx.deps.db, input.limit);
      const usedBy = await usernamesByIds(ctx.deps.db, invites.flatMap((invite) => invite.used_by_user_id ?? []));
      return invites.map((invite) => ({ ...invite, used_by_username: invite.used_by_user_id ? (usedBy.get(invite.used_by_user_id) ?? null) : null }));
    }),
  cleanup: adminProcedure
    .output(validated(z.object({ deleted: z.number(), message: z.string() })))
    .mutation(async ({ ctx }) => {
      const deleted = await cleanupInvites(ctx.deps.db);
      return { deleted, message: `Removed ${deleted} used or expired invite code${deleted === 1 ? '' : 's'}` };
    }),
});
