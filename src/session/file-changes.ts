/**
 * The `fileChange` items announced on one run's turn, kept so that the
 * `item/fileChange/requestApproval` that follows (which carries no file list) can be matched to
 * its item by `itemId` (ADR-0015). Bounded; the oldest entry goes first.
 */
import { OldestFirstMemory } from '@relvo-labs/agent-provider';
import type { CodexFileChangeItem, CodexToolItem } from '../protocol/items.js';

export const MAX_REMEMBERED_FILE_CHANGES = 256;

export class FileChangeMemory {
  readonly #turnItems = new OldestFirstMemory<string, CodexFileChangeItem>(
    MAX_REMEMBERED_FILE_CHANGES,
  );

  /** The tool item of an `item/started` on `turnId`; anything but a fileChange is ignored. */
  remember(turnId: string, item: CodexToolItem | undefined): void {
    if (item?.type !== 'fileChange') return;
    this.#turnItems.set(`${turnId}\u0000${item.id}`, item);
  }

  find(turnId: string, itemId: string): CodexFileChangeItem | undefined {
    return this.#turnItems.get(`${turnId}\u0000${itemId}`);
  }
}
