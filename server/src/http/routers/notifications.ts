import { createdWebhook, createWebhookInput, webhook, webhookIdInput, webhookTestResult } from '@clipshift/shared';
import { z } from 'zod';
import { createWebhook, deleteWebhook, listWebhooks, testWebhook } from '../../domains/notifications/service.ts';
import { authedProcedure, router, validated } from '../trpc.ts';

export const webhooksRouter = router({
  list: authedProcedure.output(validated(z.array(webhook))).query(({ ctx }) => listWebhooks(ctx.deps.db, ctx.user.id)),

  create: authedProcedure
    .input(createWebhookInput)
    .output(validated(createdWebhook))
    .mutation(({ ctx, input }) => createWebhook(ctx.deps, ctx.user.id, input)),

  delete: authedProcedure
    .input(webhookIdInput)
    .output(validated(z.object({ message: z.string() })))
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook(ctx.deps, ctx.user.id, input.id);
      return { message: 'Webhook deleted' };
    }),

  test: authedProcedure
    .input(webhookIdInput)
    .output(validated(webhookTestResult))
    .mutation(({ ctx, input, signal }) => testWebhook(ctx.deps, ctx.user.id, input.id, signal)),
});
