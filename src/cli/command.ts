import type { ParseArgsConfig } from 'node:util';

export interface CliCommand {
  summary: string;
  usage?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: Record<string, string | boolean | string[] | undefined>): Promise<number>;
}

export function requireString(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new Error(`--${name} is required`);
  return v;
}
