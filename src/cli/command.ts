import type { ParseArgsConfig } from 'node:util';
import { appScope, type BillingScope } from '../billing/subscriber-id';
import { SLUG_RE } from '../contracts/ids';

export interface CliCommand {
  summary: string;
  usage?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many arguments the command takes before its options (none when absent). */
  positionals?: number;
  run(values: Record<string, string | boolean | string[] | undefined>, positionals: string[]): Promise<number>;
}

export function requireString(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new Error(`--${name} is required`);
  return v;
}

/** `--scope operator|app:SLUG`, checked the way the API checks an app slug. */
export function requireScope(values: Record<string, unknown>): BillingScope {
  const scope = requireString(values, 'scope');
  if (scope === 'operator') return scope;
  if (scope.startsWith('app:') && SLUG_RE.test(scope.slice(4))) return appScope(scope.slice(4));
  throw new Error('--scope must be operator or app:SLUG');
}
