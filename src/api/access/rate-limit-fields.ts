import type { RateDecision } from '../../contracts/rate-limit';

/**
 * The RateLimit-Policy and RateLimit response fields of the IETF HTTPAPI draft (draft-ietf-httpapi-ratelimit-
 * headers): the policy (`q` hits per `w` seconds) and what is left of it (`r` hits, the next freed in `t`
 * seconds), so a client can pace itself instead of running into 429s.
 */
export function rateLimitFields(policy: string, d: RateDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${d.limit};w=${d.windowSeconds}`,
    RateLimit: `"${policy}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}
