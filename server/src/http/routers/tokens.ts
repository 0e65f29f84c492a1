import { apiToken, createdToken, createTokenInput, tokenIdInput } from '@clipshift/shared';
import { z } from 'zod';
import { createToken, listTokens, revokeToken } from '../../domains/tokens/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

/** API tokens: made, listed and revoked from a signed-in session only (access.ts refuses tokens). */
export const tokensRouter = router({
  list: authedProcedure.output(validated(z.array(apiToken))).query(({ ctx }) => listTokens(ctx.deps.db, ctx.user.id)),

  create: authedProcedure
    .input(createTokenInput)
    .output(validated(createdToken))
    .mutation(({ ctx, input }) => createToken(ctx.deps.db, ctx.user, input)),

  delete: authedProcedure
    .input(tokenIdInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      await revokeToken(ctx.deps.db, ctx.user.id, input.id);
      return { message: 'API token revoked' };
    }),
});
