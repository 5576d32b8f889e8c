/** Project, org and app identifiers: short, URL-safe, lower case, so they read well in workflow ids. */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9._-]{0,62}$';
export const SLUG_RE = new RegExp(SLUG_PATTERN);
