import { describe, expect, it } from 'vitest';
import { platformAvatarUrl } from './avatars.ts';

describe('platformAvatarUrl: only the platforms’ own picture hosts', () => {
  it('keeps https pictures on the platform’s hosts', () => {
    for (const url of [
      'https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/abc~c5_168x168.jpeg?x-expires=1700000000&x-signature=xyz',
      'https://p19-sign.tiktokcdn-us.com/tos-avt-0068-tx/b17f~c5_168x168.jpeg',
      'https://lf16-tt4d.tiktokcdn-eu.com/obj/tiktok-open-platform/8d57',
    ]) {
      expect(platformAvatarUrl('tiktok', url)).toBe(url);
    }
    expect(platformAvatarUrl('youtube', 'https://yt3.ggpht.com/ytc/abc=s88-c-k-c0x00ffffff-no-rj')).toBe('https://yt3.ggpht.com/ytc/abc=s88-c-k-c0x00ffffff-no-rj');
    expect(platformAvatarUrl('youtube', 'https://yt3.googleusercontent.com/abc=s88')).toBe('https://yt3.googleusercontent.com/abc=s88');
  });

  it('drops anything else: other hosts, look-alikes, plain http, credentials, ports, other schemes, the other platform’s hosts', () => {
    for (const url of [
      'https://tracker.example/pixel.gif',
      'https://tiktokcdn.com.tracker.example/a.jpeg',
      'https://eviltiktokcdn.com/a.jpeg',
      'https://tiktokcdn.com/a.jpeg',
      'http://p16-sign-va.tiktokcdn.com/a.jpeg',
      'https://user:pass@p16-sign-va.tiktokcdn.com/a.jpeg',
      'https://p16-sign-va.tiktokcdn.com:8443/a.jpeg',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'javascript:alert(1)',
      'https://yt3.ggpht.com/abc',
      `https://p16-sign-va.tiktokcdn.com/${'a'.repeat(2100)}`,
      'not a url',
      '',
    ]) {
      expect(platformAvatarUrl('tiktok', url), url).toBeNull();
    }
    expect(platformAvatarUrl('youtube', 'https://sites.googleusercontent.com/pixel.gif')).toBeNull();
    expect(platformAvatarUrl('youtube', null)).toBeNull();
    expect(platformAvatarUrl('youtube', undefined)).toBeNull();
  });
});
