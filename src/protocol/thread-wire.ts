/**
 * zod schemas of the replies about a persisted thread's history the adapter reads
 * (`thread/turns/list`), written against the 0.171.0 stable schema and the
 * frames of the real binary. Loose like `wire.ts`: only the members the adapter reads are
 * constrained.
 */
import { z } from 'zod';

const nonEmpty = z.string().min(1);

/** One turn of `thread/turns/list`; its items are read by the history translation only. */
export const listedTurnSchema = z.looseObject({
  id: nonEmpty,
  status: z.string().optional().catch(undefined),
  items: z.array(z.unknown()).optional().catch(undefined),
});
export type ListedTurn = z.infer<typeof listedTurnSchema>;

export const turnsListResultSchema = z.looseObject({
  data: z.array(listedTurnSchema),
  // null on the last page
  nextCursor: nonEmpty.nullable().optional(),
});
