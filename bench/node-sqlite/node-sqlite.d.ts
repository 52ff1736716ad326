/**
 * The part of Node's `node:sqlite` (Node 22.13+) that driver.ts uses: the repository's
 * @types/node follows its lowest supported Node, 20, which has no such module.
 */
declare module 'node:sqlite' {
  export type SQLInputValue = null | number | bigint | string | Uint8Array;
  export interface StatementResultingChanges {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }
  export class StatementSync {
    run(...params: SQLInputValue[]): StatementResultingChanges;
    get(...params: SQLInputValue[]): unknown;
    all(...params: SQLInputValue[]): unknown[];
  }
  export class DatabaseSync {
    constructor(path: string);
    readonly isOpen: boolean;
    prepare(sql: string): StatementSync;
    exec(sql: string): void;
    close(): void;
  }
}
