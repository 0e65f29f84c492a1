import { describe, expect, it } from 'vitest';
import { clipDetailsPath, connectPath, landingSectionPath, paths, rememberedPath, reviewClipPath, TWITCH_SETTINGS_PATH } from './paths';

describe('paths', () => {
  it('link the guest page with its passkey and the landing page’s sections', () => {
    expect(connectPath()).toBe('/connect');
    expect(connectPath('AB C1')).toBe('/connect?passkey=AB%20C1');
    expect(landingSectionPath('request-access')).toBe('/#request-access');
    expect(paths.app.dashboard).toBe('/app');
  });

  it('link one clip’s details, its review card and the Twitch settings', () => {
    expect(clipDetailsPath('Funny Clip/1')).toBe('/app/clips?clip=Funny%20Clip%2F1');
    expect(reviewClipPath('AbcDef-1')).toBe('/app/review?clip=AbcDef-1');
    expect(TWITCH_SETTINGS_PATH).toBe('/app/settings#twitch');
  });

  it('remember only pages of this app to come back to after login', () => {
    expect(rememberedPath({ from: '/app/logs?x=1#y' })).toBe('/app/logs?x=1#y');
    expect(rememberedPath({ from: '//evil.example/' })).toBeNull();
    expect(rememberedPath({ from: 'https://evil.example/' })).toBeNull();
    expect(rememberedPath({ from: 42 })).toBeNull();
    expect(rememberedPath(null)).toBeNull();
  });
});
