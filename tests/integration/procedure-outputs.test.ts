import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clipList } from '@clipshift/shared';
import { appRouter } from '../../server/src/http/router.ts';
import { validated } from '../../server/src/http/trpc.ts';

type ProcedureDefs = Record<string, { _def: { output?: unknown } }>;

describe('procedure outputs', () => {
  it('are checked through validated(): synchronously, with the zod schema the OpenAPI document shows', () => {
    const procedures = appRouter._def.procedures as unknown as ProcedureDefs;
    const unchecked = Object.entries(procedures)
      .filter(([, procedure]) => procedure._def.output !== undefined)
      .filter(([, { _def }]) => {
        const output = _def.output as { schema?: unknown; parseAsync?: unknown };
        // tRPC prefers parseAsync when a parser has one, and zod's async parse skips its compiled path.
        return !(output.schema instanceof z.ZodType) || 'parseAsync' in output;
      })
      .map(([name]) => name);
    expect(Object.keys(procedures).length).toBeGreaterThan(50);
    expect(unchecked).toEqual([]);
  });

  it('still refuse an answer that breaks the schema, and drop what it does not name', () => {
    const output = validated(clipList);
    expect(() => output.parse({ clips: 'none', total: 0, page: 1, limit: 50 })).toThrow();
    expect(output.parse({ clips: [], total: 0, page: 1, limit: 50, secret: 'x' })).toEqual({ clips: [], total: 0, page: 1, limit: 50 });
  });
});
