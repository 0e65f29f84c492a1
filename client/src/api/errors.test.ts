import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import {
  describeError,
  errorCode,
  failureText,
  formErrorMessage,
  HttpStatusError,
  isNetworkError,
  isUnauthorizedError,
  loadFailureDescription,
  NETWORK_ERROR,
  serverIssues,
  serverMessage,
  UNREACHABLE_DESCRIPTION,
} from './errors';

function answered(code: string, message: string, issues?: { path: (string | number)[]; message: string }[]) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: 400, issues } } });
}
const offline = new TypeError('Failed to fetch');
const notTrpc = TRPCClientError.from(new Error('Unexpected token < in JSON'));

describe('reading a failed call', () => {
  it('tells an answer from no answer at all', () => {
    expect(isNetworkError(offline)).toBe(true);
    expect(isNetworkError(notTrpc)).toBe(true);
    expect(isNetworkError(answered('CONFLICT', 'busy'))).toBe(false);
    expect(isUnauthorizedError(answered('UNAUTHORIZED', 'Not signed in'))).toBe(true);
    expect(isUnauthorizedError(offline)).toBe(false);
  });

  it('gives the server’s code, message and field refusals only when it answered', () => {
    expect(errorCode(answered('CONFLICT', 'busy'))).toBe('CONFLICT');
    expect(errorCode(offline)).toBeNull();
    expect(serverMessage(answered('NOT_FOUND', 'Streamer x not found'))).toBe('Streamer x not found');
    expect(serverMessage(notTrpc)).toBeNull();
    expect(serverIssues(answered('BAD_REQUEST', 'Invalid', [{ path: ['name'], message: 'required' }]))).toEqual([{ path: ['name'], message: 'required' }]);
    expect(serverIssues(offline)).toEqual([]);
  });

  it('words a failure: the server’s message (prefixed on request), the fallback, or the offline text', () => {
    const words = { fallback: 'Failed to delete clip', offline: 'Could not reach the server', prefixed: true };
    expect(failureText(answered('NOT_FOUND', 'Clip not found'), words)).toBe('Error: Clip not found');
    expect(failureText(answered('NOT_FOUND', ''), words)).toBe('Failed to delete clip');
    expect(failureText(offline, words)).toBe('Could not reach the server');
    expect(failureText(offline, { fallback: 'Invalid passkey' })).toBe('Invalid passkey');
    expect(failureText(answered('BAD_REQUEST', 'Invalid passkey format'), { fallback: 'Invalid passkey' })).toBe('Invalid passkey format');
  });

  it('gives forms the network notice and toasts a reason', () => {
    expect(formErrorMessage(offline, 'Login failed')).toBe(NETWORK_ERROR);
    expect(formErrorMessage(answered('UNAUTHORIZED', 'Invalid username or password'), 'Login failed')).toBe('Invalid username or password');
    expect(describeError(offline)).toBe(NETWORK_ERROR);
    expect(describeError(answered('FORBIDDEN', 'Administrators only'))).toBe('Administrators only');
  });

  it('words an answer the API did not write by its status, never as a lost connection', () => {
    const proxy502 = TRPCClientError.from(new HttpStatusError(502, null));
    expect(isNetworkError(proxy502)).toBe(false);
    expect(errorCode(proxy502)).toBeNull();
    expect(serverMessage(proxy502)).toBe('HTTP error! status: 502');
    expect(describeError(proxy502)).toBe('HTTP error! status: 502');
    expect(failureText(proxy502, { fallback: 'Failed', offline: 'Offline', prefixed: true })).toBe('Error: HTTP error! status: 502');
    expect(serverMessage(TRPCClientError.from(new HttpStatusError(503, { message: 'Down for maintenance' })))).toBe('Down for maintenance');
  });

  it('describes a failed load by what happened: unreachable only when nothing answered', () => {
    expect(loadFailureDescription(offline)).toBe(UNREACHABLE_DESCRIPTION);
    expect(loadFailureDescription(offline, 'Refresh tries again.')).toBe('Refresh tries again.');
    expect(loadFailureDescription(answered('INTERNAL_SERVER_ERROR', 'Internal server error'))).toBe('Internal server error');
    expect(loadFailureDescription(TRPCClientError.from(new HttpStatusError(500, null)))).toBe('HTTP error! status: 500');
  });
});
