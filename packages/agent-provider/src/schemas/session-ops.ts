import { z } from 'zod';
import { providerEventInputSchema } from './events.js';
import { turnInputSchema } from './turn.js';

/*
 * What a session can do with its own history (docs/spi.md §6): read it page by page, take back
 * its last turns. Each
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

/** The most turns one history page holds, and the longest cursor. */
export const HISTORY_MAX_LIMIT = 100;
export const HISTORY_CURSOR_MAX = 4096;
/** Events of one history turn: its final message, split like live deltas. */
export const HISTORY_TURN_MAX_EVENTS = 64;

const cursorSchema = z.string().min(1).max(HISTORY_CURSOR_MAX);

/** `ProviderSession.history`: one page, newest turns first; `cursor` continues a page before. */
export const historyRequestSchema = z.strictObject({
  cursor: cursorSchema.optional(),
  limit: z.number().int().min(1).max(HISTORY_MAX_LIMIT).optional(),
});
export type HistoryRequest = z.infer<typeof historyRequestSchema>;

export const HISTORY_TURN_OUTCOMES = ['succeeded', 'failed', 'interrupted', 'running'] as const;

/**
 * One past turn in the shapes of a live one: what the person sent (absent when it held no text)
 * and the events a host would have seen (the final message as `run.message_delta`s).
 */
export const historyTurnSchema = z.strictObject({
  input: turnInputSchema.optional(),
  events: z.array(providerEventInputSchema).max(HISTORY_TURN_MAX_EVENTS),
  outcome: z.enum(HISTORY_TURN_OUTCOMES),
});
export type HistoryTurn = z.infer<typeof historyTurnSchema>;

export const historyPageSchema = z.strictObject({
  /** Newest first. */
  turns: z.array(historyTurnSchema).max(HISTORY_MAX_LIMIT),
  /** Absent on the oldest page. */
  nextCursor: cursorSchema.optional(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const sessionCapabilitySchema = z.strictObject({
  // true = `ProviderSession.revert` takes the last turns out of what the model sees next.
  revert: z.boolean().default(false),
  // true = `ProviderSession.history` reads the session's past turns page by page.
  history: z.boolean().default(false),
});
export type SessionCapability = z.infer<typeof sessionCapabilitySchema>;
