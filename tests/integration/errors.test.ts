import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INTERNAL_MESSAGE, isServerFault, toErrorResponse } from '../../server/src/http/errors.ts';
import { AppError, conflict } from '../../server/src/platform/errors.ts';
import { createCallerFactory, publicProcedure, router } from '../../server/src/http/trpc.ts';
import type { Context } from '../../server/src/http/trpc.ts';

/** A router of deliberately broken procedures, run through the app's own tRPC setup. */
const brokenRouter = router({
  badOutput: publicProcedure.output(z.object({ secret: z.string() })).query(() => ({ secret: 42 }) as unknown as { secret: string }),
  throws: publicProcedure.query(() => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
  }),
  refuses: publicProcedure.query(() => {
    throw conflict('Streamer Bob already exists');
  }),
  validated: publicProcedure.input(z.object({ name: z.string().min(3, 'Name is too short') })).query(({ input }) => input.name),
});
const context = { user: null, sessionId: null, auth: { kind: 'session' } } as unknown as Context;
const caller = createCallerFactory(brokenRouter)(context);

async function failureOf(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe('toErrorResponse', () => {
  it('turns an output-validation failure into a plain 500, without its issues', async () => {
    const error = await failureOf(caller.badOutput());
    expect(error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(toErrorResponse(error)).toEqual({
      status: 500,
      body: { error: INTERNAL_MESSAGE, message: INTERNAL_MESSAGE, code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(isServerFault(error)).toBe(true);
  });

  it('hides the message of an unexpected exception', async () => {
    const error = await failureOf(caller.throws());
    const { status, body } = toErrorResponse(error);
    expect(status).toBe(500);
    expect(body).toEqual({ error: INTERNAL_MESSAGE, message: INTERNAL_MESSAGE, code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });

  it('answers a validation failure with 400, the first message and the issues', async () => {
    const error = await failureOf(caller.validated({ name: 'ab' }));
    // The error itself carries the human message, not zod's JSON dump.
    expect(error.message).toBe('Name is too short');
    expect(toErrorResponse(error)).toEqual({
      status: 400,
      body: {
        error: 'Name is too short',
        message: 'Name is too short',
        code: 'BAD_REQUEST',
        issues: [{ path: ['name'], message: 'Name is too short' }],
      },
    });
  });

  it("keeps the human message of an expected failure and the route's extra fields", () => {
    expect(toErrorResponse(conflict('Already generating subtitles for clip'), { ok: false })).toEqual({
      status: 409,
      body: { ok: false, error: 'Already generating subtitles for clip', message: 'Already generating subtitles for clip', code: 'CONFLICT' },
    });
    // Extra fields can never replace the three contract fields.
    const sneaky = new AppError('NOT_FOUND', 'Invalid passkey');
    expect(toErrorResponse(sneaky, { error: 'x', message: 'y', code: 'z' }).body).toEqual({ error: 'Invalid passkey', message: 'Invalid passkey', code: 'NOT_FOUND' });
    expect(isServerFault(sneaky)).toBe(false);
  });

  it('answers an AppError thrown by a procedure with its own code, over tRPC and in-process callers alike', async () => {
    const error = await failureOf(caller.refuses());
    expect({ code: error.code, message: error.message }).toEqual({ code: 'CONFLICT', message: 'Streamer Bob already exists' });
    expect(toErrorResponse(error)).toEqual({
      status: 409,
      body: { error: 'Streamer Bob already exists', message: 'Streamer Bob already exists', code: 'CONFLICT' },
    });
    expect(isServerFault(error)).toBe(false);
  });

  it.each([
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415],
    ['TOO_MANY_REQUESTS', 429],
    ['BAD_GATEWAY', 502],
    ['SERVICE_UNAVAILABLE', 503],
  ] as const)('maps %s to %i with the same code', (code, status) => {
    const { status: actual, body } = toErrorResponse(new AppError(code, 'Some human text'));
    expect(actual).toBe(status);
    expect(body).toEqual({ error: 'Some human text', message: 'Some human text', code });
  });

  it('names a body-parse failure BAD_REQUEST', () => {
    expect(toErrorResponse(new TRPCError({ code: 'PARSE_ERROR', message: 'Request body is not valid JSON' }))).toEqual({
      status: 400,
      body: { error: 'Request body is not valid JSON', message: 'Request body is not valid JSON', code: 'BAD_REQUEST' },
    });
  });
});
