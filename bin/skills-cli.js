#!/usr/bin/env node
// `npx skills-cli <command> …` is the operator CLI (src/cli.ts, compiled to dist/ by `npm run build`, which
// `npm test` and `npm run dev` run too) with nothing of npm's own on stdout: `npx skills-cli invoke … > notes.md`
// writes the Markdown alone.
import('../dist/src/cli.js');
