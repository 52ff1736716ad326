/**
 * Notifications as the connection decodes them, for tests of the modules behind the edge (the
 * stall watchdog, tool activity): raw params are scoped to one thread and turn and decoded once.
 */
import { decodeNotification, type InboundNotification } from '../../src/protocol/inbound.js';
import type { CodexToolItem } from '../../src/protocol/items.js';

export const SCOPE = { threadId: 'thr_test', turnId: 'turn_test' } as const;

/** `params` as codex would send them on the test turn (its scope added unless present). */
export function scoped(method: string, params: object): InboundNotification {
  return decodeNotification(method, { ...SCOPE, ...params });
}

/** The tool item the edge decodes from `item/started` / `item/completed` params, if any. */
export function toolItemOf(params: unknown): CodexToolItem | undefined {
  const decoded = decodeNotification('item/started', params);
  return decoded.method === 'item/started' ? decoded.tool : undefined;
}
