import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTAGRAM_OPTIONS, INSTAGRAM_USERNAME_INVALID, TOO_MANY_COLLABORATORS } from '@clipshift/shared';
import { addCollaborators, instagramOptionsProblem } from './instagram-posting';

describe('addCollaborators', () => {
  it('adds usernames without their @, once each whatever their case', () => {
    expect(addCollaborators([], '@Erin.Creates, sam_plays')).toEqual({ terms: ['Erin.Creates', 'sam_plays'], problem: null, rest: '' });
    expect(addCollaborators(['sam_plays'], 'SAM_PLAYS')).toEqual({ terms: ['sam_plays'], problem: null, rest: '' });
  });

  it('keeps what cannot be a username in the input, with the API’s reason', () => {
    expect(addCollaborators(['kai'], 'good.name not-a-name')).toEqual({ terms: ['kai', 'good.name'], problem: INSTAGRAM_USERNAME_INVALID, rest: 'not-a-name' });
    expect(addCollaborators([], 'x'.repeat(31))).toMatchObject({ terms: [], problem: INSTAGRAM_USERNAME_INVALID });
  });

  it('stops at three collaborators, keeping the fourth typed', () => {
    expect(addCollaborators(['a', 'b'], 'c d')).toEqual({ terms: ['a', 'b', 'c'], problem: TOO_MANY_COLLABORATORS, rest: 'd' });
  });
});

describe('instagramOptionsProblem', () => {
  it('passes the defaults and names what the API would refuse', () => {
    expect(instagramOptionsProblem(DEFAULT_INSTAGRAM_OPTIONS)).toBeNull();
    expect(instagramOptionsProblem({ ...DEFAULT_INSTAGRAM_OPTIONS, collaborators: ['a', 'b', 'c', 'd'] })).toBe(TOO_MANY_COLLABORATORS);
    expect(instagramOptionsProblem({ ...DEFAULT_INSTAGRAM_OPTIONS, collaborators: ['bad name'] })).toBe(INSTAGRAM_USERNAME_INVALID);
  });
});
