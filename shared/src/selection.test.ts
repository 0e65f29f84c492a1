import { describe, expect, it } from 'vitest';
import { createStreamerInput, updateStreamerInput } from './streamers.ts';
import { clipsOverlap, countSkips, describeSkips, selectClips, velocity, type CandidateClip, type SelectionRules } from './selection.ts';

const NOW = Date.UTC(2026, 4, 1, 12);
const HOUR = 3_600_000;

function clip(id: string, fields: Partial<CandidateClip> & { hoursAgo?: number } = {}): CandidateClip {
  const { hoursAgo = 1, ...rest } = fields;
  return { id, view_count: 100, created_at: new Date(NOW - hoursAgo * HOUR).toISOString(), creator_name: 'MrMarshall', video_id: '', vod_offset: null, duration: 30, ...rest };
}

const rules = (overrides: Partial<SelectionRules> = {}): SelectionRules => ({
  clip_period: 'all',
  min_views: 0,
  rank_by: 'views',
  clip_creators: [],
  limit: 10,
  library: new Set(),
  now: NOW,
  ...overrides,
});

const ids = (clips: readonly CandidateClip[]) => clips.map((one) => one.id);
const reasons = (selection: ReturnType<typeof selectClips>) => Object.fromEntries(selection.skipped.map((skip) => [skip.clip.id, skip.reason]));

describe('selectClips', () => {
  it('keeps only clips made within the period', () => {
    const clips = [clip('today', { hoursAgo: 5 }), clip('lastweek', { hoursAgo: 24 * 6 }), clip('old', { hoursAgo: 24 * 40 })];
    expect(ids(selectClips(clips, rules({ clip_period: 'day' })).picked)).toEqual(['today']);
    expect(ids(selectClips(clips, rules({ clip_period: 'week' })).picked)).toEqual(['today', 'lastweek']);
    expect(ids(selectClips(clips, rules({ clip_period: 'month' })).picked)).toEqual(['today', 'lastweek']);
    expect(ids(selectClips(clips, rules({ clip_period: 'all' })).picked)).toEqual(['today', 'lastweek', 'old']);
    expect(reasons(selectClips(clips, rules({ clip_period: 'day' })))).toEqual({ lastweek: 'period', old: 'period' });
  });

  it('skips clips under the minimum views (the minimum itself passes)', () => {
    const selection = selectClips([clip('a', { view_count: 500 }), clip('b', { view_count: 499 })], rules({ min_views: 500 }));
    expect(ids(selection.picked)).toEqual(['a']);
    expect(reasons(selection)).toEqual({ b: 'min_views' });
  });

  it('featured_only skips clips Twitch did not mark as featured (a clip the listing said nothing of passes)', () => {
    const clips = [clip('star', { is_featured: true }), clip('plain', { is_featured: false }), clip('unsaid')];
    const selection = selectClips(clips, rules({ featured_only: true }));
    expect(selection.picked.map((picked) => picked.id)).toEqual(['star', 'unsaid']);
    expect(selection.skipped).toEqual([{ clip: clips[1], reason: 'featured' }]);
    expect(selectClips(clips, rules()).picked).toHaveLength(3);
    expect(describeSkips(countSkips(selection.skipped), { clip_period: 'all', min_views: 0 })).toBe('1 not featured by the streamer');
  });

  it('accepts only the allowed creators, by login ignoring case; empty allows anyone', () => {
    const clips = [clip('mod', { creator_name: 'ModMan' }), clip('rando', { creator_name: 'Rando' })];
    const selection = selectClips(clips, rules({ clip_creators: ['modman'] }));
    expect(ids(selection.picked)).toEqual(['mod']);
    expect(reasons(selection)).toEqual({ rando: 'creator' });
    expect(ids(selectClips(clips, rules()).picked)).toEqual(['mod', 'rando']);
  });

  it('ranks by velocity: a fresh clip with fewer views above an old one with more', () => {
    const clips = [clip('old', { view_count: 1000, hoursAgo: 100 }), clip('fresh', { view_count: 300, hoursAgo: 2 })];
    expect(ids(selectClips(clips, rules({ rank_by: 'velocity' })).picked)).toEqual(['fresh', 'old']);
    expect(ids(selectClips(clips, rules({ rank_by: 'views', clip_period: 'month' })).picked)).toEqual(['old', 'fresh']);
  });

  it('counts a clip younger than an hour as an hour old', () => {
    expect(velocity(clip('x', { view_count: 60, hoursAgo: 0.1 }), NOW)).toBe(60);
    expect(velocity(clip('x', { view_count: 60, hoursAgo: 3 }), NOW)).toBe(20);
  });

  it('keeps listed order for views over all (newest window first), sorts by views within a period', () => {
    const clips = [clip('newWindow', { view_count: 10 }), clip('oldWindow', { view_count: 999, hoursAgo: 24 * 10 })];
    expect(ids(selectClips(clips, rules()).picked)).toEqual(['newWindow', 'oldWindow']);
    expect(ids(selectClips(clips, rules({ clip_period: 'month' })).picked)).toEqual(['oldWindow', 'newWindow']);
  });

  it('keeps the most viewed of clips of one VOD overlapping by more than half, and non-overlapping ones', () => {
    const vod = { video_id: 'v1', duration: 30 };
    const clips = [
      clip('less', { ...vod, vod_offset: 100, view_count: 50 }),
      clip('most', { ...vod, vod_offset: 110, view_count: 90 }), // shares 20 of 30 s with "less"
      clip('edge', { ...vod, vod_offset: 125, view_count: 40 }), // shares 15 of 30 s with "most": exactly half, not more
      clip('later', { ...vod, vod_offset: 500, view_count: 10 }),
      clip('otherVod', { video_id: 'v2', vod_offset: 100, duration: 30, view_count: 5 }),
      clip('noVod', { vod_offset: null, view_count: 1 }),
    ];
    const selection = selectClips(clips, rules());
    expect(ids(selection.picked)).toEqual(['most', 'edge', 'later', 'otherVod', 'noVod']);
    expect(selection.skipped).toEqual([{ clip: clips[0], reason: 'overlap', keptId: 'most' }]);
  });

  it('compares overlap with the shorter clip', () => {
    const long = clip('long', { video_id: 'v', vod_offset: 0, duration: 60 });
    expect(clipsOverlap(long, clip('inside', { video_id: 'v', vod_offset: 20, duration: 10 }))).toBe(true);
    expect(clipsOverlap(long, clip('halfOut', { video_id: 'v', vod_offset: 55, duration: 10 }))).toBe(false);
    expect(clipsOverlap(clip('a', { video_id: '', vod_offset: 0 }), clip('b', { video_id: '', vod_offset: 0 }))).toBe(false);
  });

  it('lets a library clip win an overlap, then skips it as already in the library', () => {
    const clips = [clip('saved', { video_id: 'v', vod_offset: 0, view_count: 100 }), clip('copy', { video_id: 'v', vod_offset: 5, view_count: 20 }), clip('new', { view_count: 10 })];
    const selection = selectClips(clips, rules({ library: new Set(['saved']) }));
    expect(ids(selection.picked)).toEqual(['new']);
    expect(reasons(selection)).toEqual({ saved: 'library', copy: 'overlap' });
  });

  it('takes the limit, and names only refused clips that rank above the last pick', () => {
    const clips = [clip('a', { view_count: 900 }), clip('low1', { view_count: 5 }), clip('b', { view_count: 800 }), clip('c', { view_count: 700 }), clip('low2', { view_count: 4 })];
    const selection = selectClips(clips, rules({ clip_period: 'week', min_views: 750, limit: 1 }));
    expect(ids(selection.picked)).toEqual(['a']);
    expect(selection.skipped).toEqual([]);
    const short = selectClips(clips, rules({ clip_period: 'week', min_views: 750, limit: 5 }));
    expect(ids(short.picked)).toEqual(['a', 'b']);
    expect(ids(short.skipped.map((skip) => skip.clip))).toEqual(['c', 'low1', 'low2']);
  });

  it('sums the reasons in words', () => {
    const selection = selectClips(
      [clip('a', { view_count: 1 }), clip('b', { view_count: 2 }), clip('c', { creator_name: 'x' }), clip('d', { video_id: 'v', vod_offset: 0 }), clip('e', { video_id: 'v', vod_offset: 1, view_count: 50 })],
      rules({ min_views: 10, clip_creators: ['mrmarshall'] }),
    );
    expect(describeSkips(countSkips(selection.skipped), { clip_period: 'all', min_views: 10 })).toBe(
      '2 under 10 views, 1 by other creators, 1 overlapping a more viewed clip of the same VOD',
    );
  });
});

describe('selection fields of a streamer', () => {
  it('defaults to every clip, by views, posted at once', () => {
    expect(createStreamerInput.parse({ name: 'shroud' })).toMatchObject({ clip_period: 'all', min_views: 0, rank_by: 'views', clip_creators: [], publish_mode: 'auto', featured_only: false });
  });

  it('lower-cases creators and drops blanks and repeats', () => {
    expect(createStreamerInput.parse({ name: 'shroud', clip_creators: [' ModMan ', 'modman', '', 'Vip_1'] }).clip_creators).toEqual(['modman', 'vip_1']);
  });

  it.each([
    [{ clip_period: 'year' }, 'clip_period must be day, week, month or all'],
    [{ rank_by: 'likes' }, 'rank_by must be views or velocity'],
    [{ publish_mode: 'later' }, 'publish_mode must be auto or review'],
    [{ featured_only: 1 }, 'featured_only must be true or false'],
    [{ min_views: -1 }, 'min_views must be a whole number from 0 to 1000000000'],
    [{ min_views: 1.5 }, 'min_views must be a whole number from 0 to 1000000000'],
    [{ min_views: 1e10 }, 'min_views must be a whole number from 0 to 1000000000'],
    [{ min_views: '5' }, 'min_views must be a whole number from 0 to 1000000000'],
    [{ clip_creators: 'modman' }, /^clip_creators must be a list of at most 100 Twitch logins/],
    [{ clip_creators: ['no spaces'] }, /"no spaces" is not one$/],
    [{ clip_creators: [42] }, /^clip_creators must be a list/],
    [{ clip_creators: Array.from({ length: 101 }, (_, index) => `user${index}`) }, /^clip_creators must be a list of at most 100/],
  ])('refuses %j', (fields, message) => {
    const issue = updateStreamerInput.safeParse({ name: 'shroud', ...fields }).error?.issues[0];
    expect(issue?.message).toMatch(message);
  });
});
