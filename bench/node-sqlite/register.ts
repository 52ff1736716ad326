/**
 * `NODE_OPTIONS="--import <this file>"` (Node 24: it strips the types itself) runs every
 * process of a command, test workers and the children they spawn, on node:sqlite instead of
 * better-sqlite3: how the SQLite numbers of ADR-0063 were taken on both drivers (bench/store-drivers.ts).
 */
import { register } from 'node:module';

register('./hooks.ts', import.meta.url);
