/**
 * The log records of a revert (docs/behaviour.md, "Undo"): the request is recorded under the
 * lease before the provider hears of it (ADR-0046), the outcome once the provider answered. A
 * request without an outcome is a revert whose effect is unknown (its runtime ended, or the
 * provider's answer never came); the turns it names stay in the log either way.
 */
import { REVERT_MAX_TURNS } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { profileNameSchema } from './config.js';

const turns = z.number().int().min(1).max(REVERT_MAX_TURNS);

/** A host asked to take the last `turns` turns of `profile`'s provider session back. */
export const sessionRevertRequestedPayloadSchema = z.strictObject({
  type: z.literal('session.revert_requested'),
  turns,
  profile: profileNameSchema,
});

/** The provider took them back; `files` says what happened to the workspace. */
export const sessionRevertedPayloadSchema = z.strictObject({
  type: z.literal('session.reverted'),
  turns,
  profile: profileNameSchema,
  files: z.enum(['kept', 'restored']),
});
