/**
 * The recovery record a provider session exports, kept in the log so that a later runtime can
 * resume the session (ADR-0036). Pure checks: bounded, schema-valid, and free of anything the
 * runtime knows to be secret.
 */
import {
  captureJson,
  type ProviderDescriptor,
  type ProviderRecoveryRecord,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { sessionRecoveryRecordedPayloadSchema } from '../envelope.js';

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;
const SECRET_MIN_CHARS = 8;

/** Values of this process's environment whose names say they are secret. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && (value?.length ?? 0) >= SECRET_MIN_CHARS)
    .map(([, value]) => value ?? '');
}

/** Whether the provider declares both halves: export here, resume in a later process. */
export function isDurable(descriptor: ProviderDescriptor, session: ProviderSession): boolean {
  const { recovery } = descriptor;
  return (
    recovery.exportsRecoveryRecord &&
    recovery.resumesFromRecoveryRecord &&
    typeof session.exportRecoveryRecord === 'function'
  );
}

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'object' && value !== null)
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

export type RecordIntake =
  | { readonly ok: true; readonly record: ProviderRecoveryRecord }
  | {
      readonly ok: false;
      readonly reason: 'record_invalid' | 'record_too_large' | 'record_secret';
    };

/** A record the log may keep, or why not. */
export function intakeRecoveryRecord(
  value: unknown,
  profile: string,
  secrets: readonly string[],
): RecordIntake {
  const captured = captureJson(value);
  if (!captured.ok) return { ok: false, reason: 'record_invalid' };
  const parsed = sessionRecoveryRecordedPayloadSchema.safeParse({
    type: 'session.recovery_recorded',
    profile,
    record: captured.value,
  });
  if (!parsed.success) {
    const tooLarge = parsed.error.issues.some((i) => i.code === 'custom');
    return { ok: false, reason: tooLarge ? 'record_too_large' : 'record_invalid' };
  }
  const text = strings(parsed.data.record, []);
  if (secrets.some((secret) => text.some((s) => s.includes(secret))))
    return { ok: false, reason: 'record_secret' };
  return { ok: true, record: parsed.data.record };
}
