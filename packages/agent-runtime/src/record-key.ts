/**
 * The log's record key (ADR-0050): a secret kept outside the log that authenticates each recovery
 * record together with the session and workspace it belongs to. Whoever can write the log but
 * not read the key cannot make a resume or fork continue a thread in another folder.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import {
  canonicalJson,
  captureJson,
  type ProviderRecoveryRecord,
} from '@relvo-labs/agent-provider';
import { RuntimeError } from './errors.js';

/** At least this many bytes of key material. */
export const RECORD_KEY_MIN_BYTES = 32;

function keyError(reason: 'record_key_invalid' | 'record_key_insecure', message: string) {
  return new RuntimeError('invalid_request', reason, message);
}

/** Key material from a host's string: base64 or hex of at least 32 bytes. */
export function parseRecordKey(text: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]+$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (bytes.length < RECORD_KEY_MIN_BYTES) {
    throw keyError(
      'record_key_invalid',
      `a record key is base64 or hex of at least ${String(RECORD_KEY_MIN_BYTES)} bytes`,
    );
  }
  return bytes;
}

/** Reads a key file; refused when another user could read or change it. */
export function readRecordKeyFile(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw keyError('record_key_invalid', 'the record key file cannot be read');
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0) {
      throw keyError(
        'record_key_insecure',
        'the record key file must be a regular file only its owner can read (chmod 600)',
      );
    }
    return parseRecordKey(readFileSync(fd, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * The key file at `path`: created (0600, 32 random bytes) when absent, else read and checked.
 * Creation is exclusive, so two processes opening one log at once agree on one key.
 */
export function recordKeyFile(path: string): Buffer {
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(RECORD_KEY_MIN_BYTES).toString('base64')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw keyError('record_key_invalid', 'the record key file cannot be created');
    }
  }
  return readRecordKeyFile(path);
}

/** The MAC a `session.recovery_recorded` envelope carries (hex HMAC-SHA-256). */
export function recordMac(
  key: Buffer,
  sessionId: string,
  workspaceRoot: string,
  profile: string,
  record: ProviderRecoveryRecord,
): string {
  const captured = captureJson(record);
  const body = canonicalJson({
    sessionId,
    workspaceRoot,
    profile,
    record: captured.ok ? captured.value : null,
  });
  return createHmac('sha256', key).update(`relvo-record:${body}`).digest('hex');
}

/** Whether `mac` is the one `record` would carry; constant-time. */
export function recordMacMatches(
  key: Buffer,
  mac: string | undefined,
  ...of: [sessionId: string, workspaceRoot: string, profile: string, record: ProviderRecoveryRecord]
): boolean {
  if (mac === undefined || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(recordMac(key, ...of), 'hex'));
}
