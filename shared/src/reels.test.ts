import { describe, expect, it } from 'vitest';
import { countHashtags, countMentions, instagramCaptionProblems, instagramPostOptions, isNineBySixteen, reelsPreflight, type ReelsVideo } from './reels.ts';

const rendered: ReelsVideo = {
  duration: 42,
  width: 1080,
  height: 1920,
  size_bytes: 40_000_000,
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  video_codec: 'h264',
  audio_codec: 'aac',
  frame_rate: 30,
  audio_sample_rate: 48_000,
  audio_channels: 2,
};

describe('reelsPreflight', () => {
  it('passes what Clipshift renders on both platforms, and a video whose details are unknown', () => {
    expect(reelsPreflight('instagram', rendered)).toEqual([]);
    expect(reelsPreflight('facebook', rendered)).toEqual([]);
    expect(reelsPreflight('facebook', { duration: 20, width: 0, height: 0, size_bytes: null })).toEqual([]);
    expect(reelsPreflight('instagram', { ...rendered, audio_codec: null, audio_sample_rate: undefined })).toEqual([]);
  });

  it('holds each platform to its own length: 15 minutes on Instagram, 90 seconds on Facebook, 3 seconds at least', () => {
    expect(reelsPreflight('instagram', { ...rendered, duration: 900 })).toEqual([]);
    expect(reelsPreflight('instagram', { ...rendered, duration: 900.5 })).toEqual(['The video is 900.5 s long; Instagram Reels can be at most 900 s (15 minutes).']);
    expect(reelsPreflight('facebook', { ...rendered, duration: 90 })).toEqual([]);
    expect(reelsPreflight('facebook', { ...rendered, duration: 91 })).toEqual(['The video is 91 s long; Facebook Reels can be at most 90 s.']);
    expect(reelsPreflight('instagram', { ...rendered, duration: 2.9 })).toEqual(['The video is 2.9 s long; Instagram Reels must be at least 3 s.']);
  });

  it('wants 9:16, at least 540×960 on Facebook, within 1 GB, MP4/MOV with H.264 and AAC at 24–60 fps', () => {
    expect(isNineBySixteen(1088, 1920)).toBe(true);
    expect(isNineBySixteen(1080, 1080)).toBe(false);
    expect(reelsPreflight('instagram', { ...rendered, width: 1920, height: 1080 })).toEqual(['The video is 1920×1080; Instagram Reels must be vertical 9:16 (such as 1080×1920).']);
    expect(reelsPreflight('facebook', { ...rendered, width: 360, height: 640 })).toEqual(['The video is 360×640; Facebook Reels must be at least 540×960.']);
    expect(reelsPreflight('instagram', { ...rendered, width: 360, height: 640 })).toEqual([]);
    expect(reelsPreflight('facebook', { ...rendered, size_bytes: 1_000_000_001 })).toEqual(['The video is larger than the 1 GB Facebook Reels accept.']);
    expect(reelsPreflight('facebook', { ...rendered, size_bytes: 0 })).toEqual(['The video file is empty.']);
    const problems = reelsPreflight('facebook', { ...rendered, container: 'matroska,webm', video_codec: 'vp9', frame_rate: 23.976, audio_codec: 'opus', audio_sample_rate: 96_000, audio_channels: 6 });
    expect(problems).toEqual([
      'The video is a matroska,webm file; Facebook Reels must be MP4 or MOV.',
      'The video is encoded as vp9; Clipshift posts H.264 video to Facebook.',
      'The video has 23.98 frames per second; Facebook Reels need 24 to 60.',
      'The sound is encoded as opus; Facebook Reels need AAC.',
      'The sound is sampled at 96000 Hz; Facebook Reels take at most 48000 Hz.',
      'The sound has 6 channels; Facebook Reels take mono or stereo.',
    ]);
    // Instagram takes 23 fps, Facebook does not.
    expect(reelsPreflight('instagram', { ...rendered, frame_rate: 23.976 })).toEqual([]);
  });
});

describe('Instagram captions and options', () => {
  it('counts hashtags and mentions as Instagram does', () => {
    expect(countHashtags('GG #clutch #cs2 and #Über_play, not a#tag')).toBe(3);
    expect(countMentions('@pro.player with @coach_x, mail me@example.com')).toBe(2);
  });

  it('names a caption over 2,200 characters, 30 hashtags or 20 mentions', () => {
    expect(instagramCaptionProblems('Clutch #cs2')).toEqual([]);
    const hashtags = Array.from({ length: 31 }, (_, index) => `#t${index}`).join(' ');
    const mentions = Array.from({ length: 21 }, (_, index) => `@u${index}`).join(' ');
    expect(instagramCaptionProblems(`${'a'.repeat(2201)}`)).toEqual(['The caption has 2201 characters; Instagram allows 2200.']);
    expect(instagramCaptionProblems(hashtags)).toEqual(['The caption has 31 hashtags; Instagram allows 30.']);
    expect(instagramCaptionProblems(mentions)).toEqual(['The caption mentions 21 accounts; Instagram allows 20.']);
  });

  it('defaults to sharing to the feed, no trial and no collaborators; takes at most 3 usernames', () => {
    expect(instagramPostOptions.parse({})).toEqual({ share_to_feed: true, trial_reel: false, collaborators: [] });
    expect(instagramPostOptions.parse({ share_to_feed: false, trial_reel: true, collaborators: ['@pro.player', 'coach_x', 'Coach_X'] })).toEqual({
      share_to_feed: false,
      trial_reel: true,
      collaborators: ['pro.player', 'Coach_X'],
    });
    expect(instagramPostOptions.safeParse({ collaborators: ['a', 'b', 'c', 'd'] }).error?.issues[0]?.message).toBe('A Reel can invite at most 3 collaborators');
    expect(instagramPostOptions.safeParse({ collaborators: ['not a name'] }).success).toBe(false);
    expect(instagramPostOptions.safeParse({ share_to_feed: 'yes' }).error?.issues[0]?.message).toBe('instagram.share_to_feed must be true or false');
  });
});
