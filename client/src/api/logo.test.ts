import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '@clipshift/shared';
import { logoFileProblem, logoMessages } from './logo';

describe('logo file check', () => {
  it('takes a PNG or JPEG up to 2 MB and refuses the rest in the server’s words', () => {
    expect(logoFileProblem({ type: 'image/png', size: LOGO_MAX_BYTES })).toBeNull();
    expect(logoFileProblem({ type: 'image/jpeg', size: 10 })).toBeNull();
    expect(logoFileProblem({ type: 'image/png', size: LOGO_MAX_BYTES + 1 })).toBe('A logo is at most 2 MB');
    expect(logoFileProblem({ type: 'image/gif', size: 10 })).toBe(logoMessages.wrongType);
  });
});
