import { describe, expect, it } from 'vitest';
import { readOAuthMessage } from './use-oauth-popup';

describe('the OAuth callback page’s message', () => {
  it('is read only when it has the flow’s type', () => {
    expect(readOAuthMessage({ type: 'tiktok-auth', success: true }, 'tiktok-auth')).toEqual({ success: true });
    expect(readOAuthMessage({ type: 'other', success: true }, 'tiktok-auth')).toBeNull();
    expect(readOAuthMessage('tiktok-auth', 'tiktok-auth')).toBeNull();
    expect(readOAuthMessage(null, 'tiktok-auth')).toBeNull();
  });

  it('carries the error, or says the error is unknown', () => {
    expect(readOAuthMessage({ type: 'tiktok-auth', success: false, error: 'access_denied' }, 'tiktok-auth')).toEqual({ success: false, error: 'access_denied' });
    expect(readOAuthMessage({ type: 'tiktok-auth', success: false, error: '' }, 'tiktok-auth')).toEqual({ success: false, error: 'Unknown error' });
    expect(readOAuthMessage({ type: 'tiktok-auth' }, 'tiktok-auth')).toEqual({ success: false, error: 'Unknown error' });
  });
});
