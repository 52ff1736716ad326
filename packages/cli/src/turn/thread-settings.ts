/**
 * The codex adapter's `thread_settings` diagnostic: the model (and effort) codex answered for a
 * thread it started. It names the model a turn uses when nothing configured one.
 */
import { z } from 'zod';

const threadSettingsSchema = z.looseObject({
  type: z.literal('diagnostic'),
  detail: z.looseObject({
    kind: z.literal('thread_settings'),
    model: z.string().min(1).max(200).optional(),
    effort: z.string().min(1).max(40).optional(),
  }),
});

export interface ThreadSettings {
  readonly model?: string | undefined;
  readonly effort?: string | undefined;
}

/** The settings a payload reports, or undefined when it is not that diagnostic. */
export function threadSettingsOf(payload: unknown): ThreadSettings | undefined {
  const parsed = threadSettingsSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  return { model: parsed.data.detail.model, effort: parsed.data.detail.effort };
}
