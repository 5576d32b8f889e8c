import { parseArgs } from 'node:util';
import { COMMANDS } from './cli/commands';
import { ConfigError } from './config/config';
import { withLocalSettings } from './config/env-files';

/**
 * Operator CLI: `node dist/src/cli.js <command> [--flags]` (or `npm run cli -- <command> ...`). Settings come
 * from the environment, then `.env` and the addresses a running `npm run dev` chose (src/config/env-files.ts), read
 * from the current folder, where `npm run` starts it.
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    const asked = !name || name === 'help' || name === '--help' || name === '-h';
    const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
    const list = `usage: cli <command> [options]   (cli <command> --help for one command)\n\ncommands:\n${Object.entries(COMMANDS)
      .map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}\n${c.usage ? `  ${' '.repeat(width)}  ${c.usage}\n` : ''}`)
      .join('')}`;
    if (asked) {
      process.stdout.write(list);
      return 0;
    }
    process.stderr.write(`error: unknown command "${name}"\n\n${list}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const flags = Object.entries(command.options).map(
      ([flag, o]) => `  --${flag}${o.type === 'string' ? ' VALUE' : ''}${o.multiple ? ' (repeatable)' : ''}`,
    );
    process.stdout.write(
      `usage: cli ${name} ${command.usage ?? ''}\n\n${command.summary}\n${flags.length ? `\noptions:\n${flags.join('\n')}\n` : ''}`,
    );
    return 0;
  }
  Object.assign(process.env, withLocalSettings(process.env, process.cwd()));
  const { values, positionals } = parseArgs({
    args: rest,
    options: command.options,
    allowPositionals: command.positionals !== undefined,
    strict: true,
  });
  if (command.positionals !== undefined && positionals.length !== command.positionals) {
    throw new UsageError(
      `${name} takes ${command.positionals} argument${command.positionals === 1 ? '' : 's'}: ${name} ${command.usage ?? ''}`,
    );
  }
  return command.run(values as Record<string, string | boolean | string[] | undefined>, positionals);
}

class UsageError extends Error {}

/** What to do about an error a user can fix, beyond its message. */
function hint(err: unknown): string {
  if (err instanceof ConfigError && err.problems.some((p) => /^(TEMPORAL_ADDRESS|MONGODB_URI|JWT_SECRET)/.test(p))) {
    return '\nhint: run it in this folder beside `npm run dev` (which writes .env and .data/dev-stack.env), or set the variables (see .env.example)\n';
  }
  if (err instanceof Error && /ECONNREFUSED|Server selection timed out|connect ECONN/.test(err.message)) {
    return '\nhint: is the store (MONGODB_URI) or Temporal (TEMPORAL_ADDRESS) running? `npm run dev` starts both\n';
  }
  return '';
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n${hint(err)}`);
    process.exit(err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
  },
);
