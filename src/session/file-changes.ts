/**
 * The `fileChange` items announced on one run's turn, kept so that the
 * `item/fileChange/requestApproval` that follows (which carries no file list) can be matched to
 * its item by `itemId` (ADR-0015). Bounded; the oldest entry goes first.
 */
import {
  itemNotificationSchema,
  fileChangeItemSchema,
  type CodexFileChangeItem,
} from '../protocol/items.js';
import { OldestFirstMemory } from '@relvo-labs/agent-provider';

export const MAX_REMEMBERED_FILE_CHANGES = 256;

export class FileChangeMemory {
  readonly #turnItems = new OldestFirstMemory<string, CodexFileChangeItem>(
    MAX_REMEMBERED_FILE_CHANGES,
  );

  /** `item/started` params; anything but a well-formed fileChange item is ignored. */
  remember(params: unknown): void {
    const envelope = itemNotificationSchema.safeParse(params);
    if (!envelope.success) return;
    const item = fileChangeItemSchema.safeParse(envelope.data.item);
    if (!item.success) return;
    this.#turnItems.set(`${envelope.data.turnId}\u0000${item.data.id}`, item.data);
  }

  find(turnId: string, itemId: string): CodexFileChangeItem | undefined {
    return this.#turnItems.get(`${turnId}\u0000${itemId}`);
  }
}
