import { describe, expect, it } from 'vitest';
import { descriptionFeatures, EMPTY_PROFILE, performanceProfile, performanceScore, rankByPerformance, type PostPerformance } from './ranking.ts';

const SUGGESTIONS = [
  { description: 'Watch shroud take the whole round 😱 #shroud #valorant #fyp', rank: 0.91 },
  { description: 'shroud does it again in ranked #shroud #valorant #twitch', rank: 0.84 },
  { description: 'shroud with the cleanest ace of the week #shroud #clutch #valorant', rank: 0.77 },
  { description: 'This is why shroud is different #shroud #aim #valorant', rank: 0.7 },
];

/** Posts of one account, all written alike, so only their hashtags tell them apart. */
function posts(accountId: string, clutchViews: number, plainViews: number): PostPerformance[] {
  return [
    ...[1, 2, 3].map((n) => ({ account_id: accountId, description: `clip number ${n} of the day #shroud #clutch`, views: clutchViews })),
    ...[4, 5, 6, 7, 8].map((n) => ({ account_id: accountId, description: `clip number ${n} of the day #shroud #valorant`, views: plainViews })),
  ];
}

describe('ranking description suggestions by post statistics', () => {
  it('keeps the order and ranks without statistics', () => {
    expect(rankByPerformance(SUGGESTIONS, EMPTY_PROFILE)).toEqual(SUGGESTIONS);
    expect(rankByPerformance(SUGGESTIONS, performanceProfile([]))).toEqual(SUGGESTIONS);
    // Two posts are too few for a median: the account does not count yet.
    const tooFew = performanceProfile(posts('a', 9000, 1000).slice(2, 4));
    expect(tooFew.posts).toBe(0);
    expect(rankByPerformance(SUGGESTIONS, tooFew)).toEqual(SUGGESTIONS);
  });

  it('keeps the order when every post did about as well as the others', () => {
    const even = performanceProfile(posts('a', 1000, 1000));
    expect(even.posts).toBe(8);
    expect(even.features['#clutch']!.posts).toBe(3);
    expect(even.features['#clutch']!.lift).toBeCloseTo(1, 9);
    expect(rankByPerformance(SUGGESTIONS, even)).toEqual(SUGGESTIONS);
  });

  it('moves the suggestion with the hashtag of the best posts up, same texts, ranks handed out again', () => {
    const profile = performanceProfile(posts('a', 8000, 1000));
    // The typical post is the geometric mean; #clutch posts did better, #valorant ones worse, and
    // what every post has (#shroud, the style) says nothing.
    const typical = (3 * Math.log(8001) + 5 * Math.log(1001)) / 8;
    expect(profile.features['#clutch']!.lift).toBeCloseTo(Math.exp((3 * (Math.log(8001) - typical)) / 6), 6);
    expect(profile.features['#valorant']!.lift).toBeCloseTo(Math.exp((5 * (Math.log(1001) - typical)) / 8), 6);
    expect(profile.features['#shroud']!.lift).toBeCloseTo(1, 9);
    expect(profile.features['emoji:no']!.lift).toBeCloseTo(1, 9);
    const ranked = rankByPerformance(SUGGESTIONS, profile);
    expect(ranked.map((item) => item.description)).toEqual([SUGGESTIONS[2]!.description, SUGGESTIONS[0]!.description, SUGGESTIONS[1]!.description, SUGGESTIONS[3]!.description]);
    expect(ranked.map((item) => item.rank)).toEqual([0.91, 0.84, 0.77, 0.7]);
    expect(performanceScore(profile, SUGGESTIONS[2]!.description)).toBeGreaterThan(performanceScore(profile, SUGGESTIONS[0]!.description));
  });

  it('measures each linked account against its own typical post', () => {
    // A big account whose #clutch posts did as usual and a small one where they did 8×: pooled,
    // the big account's views do not drown the small one's signal.
    const profile = performanceProfile([...posts('big', 500_000, 500_000), ...posts('small', 800, 100)]);
    expect(profile.posts).toBe(16);
    expect(profile.features['#clutch']!.lift).toBeGreaterThan(1.5);
    expect(rankByPerformance(SUGGESTIONS, profile)[0]!.description).toBe(SUGGESTIONS[2]!.description);
  });

  it('reads hashtags case-insensitively and the style of the caption', () => {
    expect(descriptionFeatures('WHAT A PLAY?! 🔥 #Clutch #clutch #FPS')).toEqual({
      hashtags: ['#clutch', '#fps'],
      style: ['length:short', 'question:yes', 'emoji:yes', 'caps:yes'],
    });
    expect(descriptionFeatures(`${'a calm and long caption '.repeat(8)}#x`).style).toEqual(['length:long', 'question:no', 'emoji:no', 'caps:no']);
  });
});
