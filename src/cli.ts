import { parseArgs } from 'node:util';
import { COMMANDS } from './cli/commands';

/** Operator CLI: `node dist/src/cli.js <command> [--flags]` (or `npm run cli -- <command> ...`). */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
    process.stdout.write(
      `usage: cli <command> [options]\n\ncommands:\n${Object.entries(COMMANDS)
        .map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}\n${c.usage ? `  ${' '.repeat(width)}  ${c.usage}\n` : ''}`)
        .join('')}`,
    );
    return name && name !== 'help' && name !== '--help' ? 2 : 0;
  }
  const { values } = parseArgs({ args: rest, options: command.options, allowPositionals: false, strict: true });
  return command.run(values as Record<string, string | boolean | string[] | undefined>);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
