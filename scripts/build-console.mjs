// The console's build (`npm run build`, and every command that compiles: scripts/ensure-deps.sh, the Dockerfile):
// copies the console's ES modules, style and page from web/console/ and the two libraries it loads as classic
// scripts (uPlot, markdown-it) from node_modules into dist/console/, which is all the API serves
// (src/api/routes/dashboard.ts). Plain files, no bundler: the browser loads the modules as they are written, and
// `tsc -p web/console` checks them. Type declarations and the folder's tsconfig stay behind.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'web', 'console');
const out = join(root, 'dist', 'console');
const require = createRequire(import.meta.url);
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

/** What is served: modules and styles (not declarations), and the page. */
const served = (name) => (name.endsWith('.js') || name.endsWith('.css') || name === 'page.html') && !name.endsWith('.d.ts');

rmSync(out, { recursive: true, force: true });
let files = 0;
const copyTree = (from, to) => {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name));
    else if (served(entry.name)) {
      copyFileSync(join(from, entry.name), join(to, entry.name));
      files += 1;
    }
  }
};
copyTree(source, out);
const vendor = [
  [join(packageDir('uplot'), 'dist', 'uPlot.iife.min.js'), 'uPlot.iife.min.js'],
  [join(packageDir('uplot'), 'dist', 'uPlot.min.css'), 'uPlot.min.css'],
  [join(packageDir('markdown-it'), 'dist', 'browser', 'markdown-it.umd.min.js'), 'markdown-it.min.js'],
];
for (const [from, name] of vendor) {
  copyFileSync(from, join(out, name));
  files += 1;
}
console.log(`[build] console: ${files} files in ${relative(root, out)}/`);
