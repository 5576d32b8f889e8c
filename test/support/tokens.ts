import jwt from 'jsonwebtoken';
import { mintToken } from '../../src/auth/mint-token';
import { TEST_JWT_SECRET } from './config';

export const adminToken = () =>
  mintToken(TEST_JWT_SECRET, { sub: 'admin', roles: ['admin'], projects: ['*'], apps: ['*'] }, { expiresInSeconds: 3600 });
export const projectToken = (projects: string[], apps: string[] = []) =>
  mintToken(TEST_JWT_SECRET, { sub: 'member', projects, apps }, { expiresInSeconds: 3600 });
export const expiredToken = () =>
  jwt.sign({ sub: 'late', projects: ['*'], exp: Math.floor(Date.now() / 1000) - 3600 }, TEST_JWT_SECRET, { algorithm: 'HS256' });
export const tokenWithoutExp = () => jwt.sign({ sub: 'forever', projects: ['*'] }, TEST_JWT_SECRET, { algorithm: 'HS256' });
export const wrongSecretToken = () =>
  mintToken('another-secret-that-is-also-long-enough-000000', { sub: 'x', projects: ['*'] }, { expiresInSeconds: 3600 });
/** `alg: none`: an unsigned token must never pass. */
export const unsignedToken = () =>
  jwt.sign({ sub: 'x', projects: ['*'], exp: Math.floor(Date.now() / 1000) + 600 }, '', { algorithm: 'none' });
