import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The repo's own ESLint config, with type information off for probe files: a probe exists only as
 * text, so no tsconfig program holds it, and the rules it is written for (import boundaries, hooks,
 * a11y) do not read types.
 */
const probeLinter = new ESLint({ overrideConfig: [{ files: ['**/probe.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }] });

/** The rule ids ESLint reports for `code` as if it were the probe file at `filePath`. */
export async function rulesBroken(code: string, filePath: string): Promise<string[]> {
  const [result] = await probeLinter.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

/** The severity (0 off, 1 warn, 2 error) the repo's config gives `rule` in the file at `filePath`. */
export async function ruleSeverity(rule: string, filePath: string): Promise<number> {
  const config = (await new ESLint().calculateConfigForFile(filePath)) as { rules?: Record<string, unknown> };
  const setting = config.rules?.[rule];
  const level = Array.isArray(setting) ? setting[0] : setting;
  return level === 'error' || level === 2 ? 2 : level === 'warn' || level === 1 ? 1 : 0;
}
