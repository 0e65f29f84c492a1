import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpStatusError } from './errors';
import { apiFetch } from './trpc';

function answer(body: string, status: number, type: string): Response {
  return new Response(body, { status, headers: { 'content-type': type } });
}

describe('the API fetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the session cookie and passes OK answers and the API’s own errors through', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    const ok = answer('[{"result":{"data":1}}]', 200, 'application/json');
    fetchMock.mockResolvedValueOnce(ok);
    expect(await apiFetch('/api/trpc/x')).toBe(ok);
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('include');

    const trpcError = answer('{"error":{"message":"Internal server error","code":-32603,"data":{"code":"INTERNAL_SERVER_ERROR","httpStatus":500}}}', 500, 'application/json');
    fetchMock.mockResolvedValueOnce(trpcError);
    expect(await apiFetch('/api/trpc/x')).toBe(trpcError);
  });

  it('turns a non-OK answer the API did not write into its HTTP status', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(answer('<html>Bad Gateway</html>', 502, 'text/html')));
    await expect(apiFetch('/api/trpc/x')).rejects.toEqual(new HttpStatusError(502, null));
    await expect(apiFetch('/api/trpc/x')).rejects.toThrow('HTTP error! status: 502');
  });

  it("turns a REST route's JSON error into its status and message, never a success", async () => {
    const body = JSON.stringify({ error: 'camqueen has no logo yet', message: 'camqueen has no logo yet', code: 'NOT_FOUND' });
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(answer(body, 404, 'application/json')));
    const failure = await apiFetch('/api/streamers/camqueen/logo').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpStatusError);
    expect(failure).toMatchObject({ status: 404, message: 'camqueen has no logo yet' });
  });

  it('keeps a real network failure as it is', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiFetch('/api/trpc/x')).rejects.toBeInstanceOf(TypeError);
  });
});
