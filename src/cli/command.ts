import type { ParseArgsConfig } from 'node:util';

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
