/**
 * The CLI as a client of the service's HTTP API: `--api URL --token JWT`, or SKILLS_API_URL and SKILLS_TOKEN.
 * Commands a client runs (invoke, connect-app, dead-letters) use it when it is given, so a script needs a token
 * rather than the store's and Temporal's settings.
 */
export interface ApiSettings {
  api: string;
  token: string;
}

export const API_OPTIONS = { api: { type: 'string' }, token: { type: 'string' } } as const;

/** The API settings from the flags or the environment; null when none is given (talk to the store directly). */
export function apiSettings(values: Record<string, unknown>): ApiSettings | null {
  const api = typeof values.api === 'string' ? values.api : process.env.SKILLS_API_URL;
  if (!api) return null;
  const token = typeof values.token === 'string' ? values.token : process.env.SKILLS_TOKEN;
  if (!token) throw new Error('--api needs --token (or SKILLS_TOKEN)');
  return { api: api.replace(/\/$/, ''), token };
}

/** One request; a non-2xx answer throws with the API's status, code and detail. */
export async function callApi<T>(
  settings: ApiSettings,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${settings.api}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${settings.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) {
    const problem = (parsed ?? {}) as { code?: string; detail?: string };
    throw new Error(`${res.status} ${problem.code ?? ''}: ${problem.detail ?? text.slice(0, 200)}`);
  }
  return parsed as T;
}
