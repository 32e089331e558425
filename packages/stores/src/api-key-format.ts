import { createHash, randomBytes } from 'node:crypto';

/**
 * API key format (SPEC 2.9): a fixed prefix, an underscore, 48 lowercase hex characters.
 * The first hex characters double as a non-secret lookup id, so authentication finds the
 * candidate row without comparing secrets, then compares hashes in constant time.
 */
export const API_KEY_PREFIX = 'ess_';
const API_KEY_HEX_LENGTH = 48;
const LOOKUP_ID_LENGTH = 8;
const API_KEY_PATTERN = /^ess_[0-9a-f]{48}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_HEX_LENGTH / 2).toString('hex');
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** 32 bits of the 192 random bits; the remaining 160 stay secret. */
export function lookupIdOf(apiKey: string): string {
  return apiKey.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + LOOKUP_ID_LENGTH);
}

export function last4Of(apiKey: string): string {
  return apiKey.slice(-4);
}

export function hashApiKey(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey, 'utf8').digest();
}
