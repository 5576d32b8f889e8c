/**
 * Gitmoji (gitmoji.dev): commit titles that start with an emoji, or its `:shortcode:`, saying what kind of
 * change they are ("💚 fix the CI build", "📝 update people", ":sparkles: add dark mode"). Read as the
 * Conventional Commits type each emoji stands for, so classify.ts treats "💚 …" as it treats "ci: …". Only
 * the emoji whose meaning is one type are read; the others ("🔥 remove code or files", "⬆️ upgrade
 * dependencies", runtime or development alike) say nothing and leave the title to the wording fallback.
 */

/** Emoji (without variation selectors) and shortcodes → the type gitmoji.dev gives them. */
const GITMOJI: [string, string, string][] = [
  ['✨', 'sparkles', 'feat'],
  ['🐛', 'bug', 'fix'],
  ['🚑', 'ambulance', 'fix'],
  ['🔒', 'lock', 'fix'],
  ['⚡', 'zap', 'perf'],
  ['📝', 'memo', 'docs'],
  ['✏', 'pencil2', 'docs'],
  ['💡', 'bulb', 'docs'],
  ['✅', 'white_check_mark', 'test'],
  ['🧪', 'test_tube', 'test'],
  ['💚', 'green_heart', 'ci'],
  ['👷', 'construction_worker', 'ci'],
  ['♻', 'recycle', 'refactor'],
  ['🏗', 'building_construction', 'refactor'],
  ['🎨', 'art', 'style'],
  ['🚨', 'rotating_light', 'style'],
  ['🔧', 'wrench', 'chore'],
  ['🔨', 'hammer', 'chore'],
  ['🙈', 'see_no_evil', 'chore'],
  ['🔖', 'bookmark', 'chore'],
  ['🧑‍💻', 'technologist', 'chore'],
  ['📦', 'package', 'build'],
];

const BY_EMOJI = new Map(GITMOJI.map(([emoji, , type]) => [emoji, type]));
const BY_CODE = new Map(GITMOJI.map(([, code, type]) => [code, type]));
/** Variation selector 16: "⚡️" and "⚡" are the same gitmoji. */
const VS16 = '\uFE0F';

/** A gitmoji title read as a Conventional Commits header (conventional.ts's ConventionalHeader, without a scope). */
export interface GitmojiHeader {
  type: string;
  scope?: undefined;
  breaking: false;
  description: string;
}

/** "💚 remove node <11" → { type: 'ci', description: 'remove node <11' }; undefined for any other title. */
export function gitmojiHeader(title: string): GitmojiHeader | undefined {
  const t = title.trim();
  const space = t.indexOf(' ');
  if (space <= 0 || space > 40) return undefined;
  const lead = t.slice(0, space);
  const code = lead.length > 2 && lead.startsWith(':') && lead.endsWith(':') ? lead.slice(1, -1) : undefined;
  const type = code !== undefined ? BY_CODE.get(code) : BY_EMOJI.get(lead.split(VS16).join(''));
  const description = t.slice(space + 1).trim();
  if (type === undefined || description === '') return undefined;
  return { type, breaking: false, description };
}
