/** RFC 9457 problem details. Every error leaves the API in this shape. */
import type { FieldError } from '../../contracts/validation';

export type ProblemFieldError = FieldError;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: ProblemFieldError[];
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export class HttpProblem extends Error {
  readonly headers: Record<string, string>;
  readonly errors: ProblemFieldError[] | undefined;
  readonly extensions: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    options: { errors?: ProblemFieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  toBody(): ProblemBody {
    return problemBody(this.status, this.code, this.detail, this.errors, this.extensions);
  }
}

export function problemBody(
  status: number,
  code: string,
  detail: string,
  errors?: ProblemFieldError[],
  extensions: Record<string, unknown> = {},
): ProblemBody {
  return {
    ...extensions,
    type: `https://errors.skills-billing.dev/${code}`,
    title: TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error'),
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export const badRequest = (code: string, detail: string, errors?: ProblemFieldError[]) => new HttpProblem(400, code, detail, { errors });
export const notFound = (code: string, detail: string) => new HttpProblem(404, code, detail);
export const forbidden = (detail: string) => new HttpProblem(403, 'forbidden', detail);
export const unauthorized = (detail: string) => new HttpProblem(401, 'unauthorized', detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const conflict = (code: string, detail: string) => new HttpProblem(409, code, detail);
export const unprocessable = (code: string, detail: string, errors?: ProblemFieldError[]) => new HttpProblem(422, code, detail, { errors });
export const serviceUnavailable = (code: string, detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(503, code, detail, { extensions, headers: { 'Retry-After': '5' } });
