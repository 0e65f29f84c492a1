import { describe, expect, it } from 'vitest';
import { connectPath, landingSectionPath, paths, rememberedPath } from './paths';

describe('paths', () => {
  it('link the guest page with its passkey and the landing page’s sections', () => {
    expect(connectPath()).toBe('/connect');
    expect(connectPath('AB C1')).toBe('/connect?passkey=AB%20C1');
    expect(landingSectionPath('request-access')).toBe('/#request-access');
    expect(paths.app.dashboard).toBe('/app');
  });

  it('remember only pages of this app to come back to after login', () => {
    expect(rememberedPath({ from: '/app/logs?x=1#y' })).toBe('/app/logs?x=1#y');
    expect(rememberedPath({ from: '//evil.example/' })).toBeNull();
    expect(rememberedPath({ from: 'https://evil.example/' })).toBeNull();
    expect(rememberedPath({ from: 42 })).toBeNull();
    expect(rememberedPath(null)).toBeNull();
  });
});
