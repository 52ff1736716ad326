import { z } from 'zod';
import { TEXT_PART_MAX } from './turn.js';

/*
 * Context from the host (docs/spi.md §6): text a session's model sees from its next request
 * on, added without a run (`ProviderSession.injectContext`, descriptor `run.injectContext`).
 */

export const CONTEXT_ITEMS_MAX = 64;
export const CONTEXT_ROLES = ['user', 'developer'] as const;

export const contextItemSchema = z.strictObject({
  type: z.literal('text'),
  /** `developer`: an instruction; `user`: as if the user had said it. */
  role: z.enum(CONTEXT_ROLES),
  text: z.string().min(1).max(TEXT_PART_MAX),
});

export const contextItemsSchema = z.array(contextItemSchema).min(1).max(CONTEXT_ITEMS_MAX);

export type ContextItem = z.infer<typeof contextItemSchema>;
