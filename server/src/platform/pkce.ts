import { createHash, randomBytes } from 'node:crypto';

/*
 * PKCE (RFC 7636): a secret verifier per authorization, whose SHA-256 goes into the authorize URL;
 * the code exchange must present the verifier, so a code is only good for the flow that asked for it.
 */

/** 32 random bytes in base64url: 43 characters of the RFC's unreserved alphabet. */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The S256 challenge of a verifier. RFC 7636 (Google) encodes the digest in base64url; TikTok's
 * Login Kit wants it in hex (external-apis.md B1, its desktop guide).
 */
export function s256Challenge(verifier: string, encoding: 'base64url' | 'hex'): string {
  return createHash('sha256').update(verifier).digest(encoding);
}
