import { z } from 'zod';

/*
 * What a session can do to its own history (docs/spi.md §8.2): take back its last turns. Each
 * is declared in the descriptor's `session` member; an undeclared one is absent or refuses
 * `capability_unsupported`.
 */

/** The most turns one revert may take back. */
export const REVERT_MAX_TURNS = 1000;

/** `ProviderSession.revert`: the session's last `turns` turns are taken out of its history. */
export const revertRequestSchema = z.strictObject({
  turns: z.number().int().min(1).max(REVERT_MAX_TURNS),
});
export type RevertRequest = z.infer<typeof revertRequestSchema>;

/**
 * What a revert did. `files`: `kept` = the workspace is as the turns left it (only the
 * conversation was taken back); `restored` = the files the turns changed are as before them.
 */
export const revertResultSchema = z.strictObject({
  turns: z.number().int().min(1).max(REVERT_MAX_TURNS),
  files: z.enum(['kept', 'restored']),
});
export type RevertResult = z.infer<typeof revertResultSchema>;

export const sessionCapabilitySchema = z.strictObject({
  // true = `ProviderSession.revert` takes the last turns out of what the model sees next.
  revert: z.boolean().default(false),
});
export type SessionCapability = z.infer<typeof sessionCapabilitySchema>;
