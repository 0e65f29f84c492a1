import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/*
 * axe-core in the page under test. The source is evaluated through the DevTools protocol, which
 * the page's Content-Security-Policy (scripts from 'self' only) does not govern, so the app is
 * checked with the policy it ships with.
 */

const require = createRequire(import.meta.url);
const AXE_SOURCE: string = (require('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

interface AxeResultShape {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** Every axe rule (WCAG 2.x A/AA and best practices such as heading-order, landmark-unique, region). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })) as AxeResultShape;
  });
  return result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
  }));
}

/** One line per violation, for a failing assertion to print. */
export function describeViolations(violations: readonly AxeViolation[]): string[] {
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.targets.slice(0, 5).join(', ')}`);
}
