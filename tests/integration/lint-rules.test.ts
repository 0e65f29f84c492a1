import { describe, expect, it } from 'vitest';
import { ruleSeverity, rulesBroken } from '../helpers/lint.ts';

/** One real file of each workspace: the typed rules hold in all of them (docs/decisions/0029-lint-rules.md). */
const WORKSPACE_FILES = ['server/src/app/main.ts', 'client/src/main.tsx', 'shared/src/downloads.ts', 'tests/helpers/wait.ts', 'scripts/demo.ts', 'bench/api.ts', 'vitest.config.ts'];
const TYPED_RULES = ['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises', '@typescript-eslint/switch-exhaustiveness-check'];

describe('lint rules every workspace keeps (eslint.config.js)', () => {
  it.each(WORKSPACE_FILES)('makes unhandled promises and non-exhaustive switches errors in %s', async (file) => {
    for (const rule of TYPED_RULES) expect(await ruleSeverity(rule, file), rule).toBe(2);
  });

  it('keeps the rules of hooks in the client', async () => {
    const conditionalHook = "import { useState } from 'react';\nexport function Probe({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n";
    expect(await rulesBroken(conditionalHook, 'client/src/features/logs/probe.tsx')).toContain('react-hooks/rules-of-hooks');
    const missingDependency = "import { useEffect } from 'react';\nexport function Probe({ id }: { id: string }) {\n  useEffect(() => console.info(id), []);\n  return null;\n}\n";
    expect(await rulesBroken(missingDependency, 'client/src/features/logs/probe.tsx')).toContain('react-hooks/exhaustive-deps');
  });

  it('checks the accessibility of client markup', async () => {
    const unnamedImage = 'export const Probe = () => <img src="/logo.png" />;\n';
    expect(await rulesBroken(unnamedImage, 'client/src/features/logs/probe.tsx')).toContain('jsx-a11y-x/alt-text');
  });
});
