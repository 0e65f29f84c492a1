import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { onSessionExpired } from '@/api/session';
import { createQueryClient } from './query-client';

function answered(code: string, message: string) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: code === 'UNAUTHORIZED' ? 401 : 500 } } });
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function listenForExpiry() {
  const expired = vi.fn();
  stops.push(onSessionExpired(expired));
  return expired;
}

describe('the query client’s error interceptor', () => {
  it('reports an UNAUTHORIZED answer to a query as an expired session, once per failed call', async () => {
    const expired = listenForExpiry();
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['streamers'], queryFn: () => Promise.reject(answered('UNAUTHORIZED', 'Not signed in')) })).rejects.toThrow('Not signed in');
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('reports an UNAUTHORIZED answer to a mutation, before the mutation’s own handlers run', async () => {
    const expired = listenForExpiry();
    const client = createQueryClient();
    const seenByMutation = vi.fn(() => expired.mock.calls.length);
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(answered('UNAUTHORIZED', 'Session expired')),
      onError: seenByMutation,
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('Session expired');
    expect(expired).toHaveBeenCalledTimes(1);
    expect(seenByMutation).toHaveReturnedWith(1);
  });

  it('lets other answers through untouched and never retries them', async () => {
    const expired = listenForExpiry();
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(answered('INTERNAL_SERVER_ERROR', 'boom')));
    await expect(client.fetchQuery({ queryKey: ['clips'], queryFn, retry: client.getDefaultOptions().queries?.retry })).rejects.toThrow('boom');
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(expired).not.toHaveBeenCalled();
  });

  it('tries a lost connection once more before giving up', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(
      client.fetchQuery({ queryKey: ['logs'], queryFn, retry: client.getDefaultOptions().queries?.retry, retryDelay: 0 }),
    ).rejects.toThrow('Failed to fetch');
    expect(queryFn).toHaveBeenCalledTimes(2);
  });
});
