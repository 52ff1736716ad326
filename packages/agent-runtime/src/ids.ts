import { randomFillSync } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt', 'cmd'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export type IdFactory = (prefix: IdPrefix) => string;

// 128 random bits per id, as 32 hex digits. Ids are minted 256 at a time per prefix: one
// random fill, written as ASCII into one buffer, decoded into one string the ids are sliced
// from (an envelope id is minted per event; a syscall, a hex string and a concatenation per id
// each showed in the profile, as did the garbage of building the string from parts).
const ID_HEX = 32;
const POOL_IDS = 256;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const bytes = Buffer.alloc((ID_HEX / 2) * POOL_IDS);

interface Pool {
  readonly ascii: Buffer;
  ids: string;
  offset: number;
}
const pools = new Map<string, Pool>();

function refill(prefix: string, pool: Pool): void {
  randomFillSync(bytes);
  const { ascii } = pool;
  let at = 0;
  for (let b = 0; b < bytes.length; b++) {
    if (b % (ID_HEX / 2) === 0) at += ascii.write(`${prefix}_`, at, 'latin1');
    const byte = bytes[b] as number;
    ascii[at++] = HEX_DIGITS[byte >> 4] as number;
    ascii[at++] = HEX_DIGITS[byte & 15] as number;
  }
  pool.ids = ascii.toString('latin1', 0, at);
  pool.offset = 0;
}

/*
 * Event ids are minted once per event, and they are not secrets: a random base of 104 bits
 * drawn once per block of 2^24 ids, then a counter in the last six hex digits. The base keeps
 * two processes (a fleet on one database) apart; the counter keeps one process's ids apart. The
 * other ids stay 128 random bits each: a session id is what a host hands to `--resume`, and
 * should not be guessable from another.
 */
const EVENT_BLOCK = 1 << 24;
const HEX3 = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, '0'));
let eventBase = '';
let eventCount = EVENT_BLOCK;
// the base and the counter's upper three digits, joined once per 4096 ids: one join per id
let eventStem = '';

function eventId(): string {
  if (eventCount === EVENT_BLOCK) {
    randomFillSync(bytes, 0, 13);
    eventBase = `evt_${bytes.toString('hex', 0, 13)}`;
    eventCount = 0;
  }
  const n = eventCount++;
  const low = n & 4095;
  if (low === 0) eventStem = eventBase + (HEX3[n >> 12] as string);
  return eventStem + (HEX3[low] as string);
}

export const randomId: IdFactory = (prefix) => {
  if (prefix === 'evt') return eventId();
  let pool = pools.get(prefix);
  if (pool === undefined) {
    pool = { ascii: Buffer.alloc((prefix.length + 1 + ID_HEX) * POOL_IDS), ids: '', offset: 0 };
    pools.set(prefix, pool);
  }
  if (pool.offset === pool.ids.length) refill(prefix, pool);
  const end = pool.offset + prefix.length + 1 + ID_HEX;
  const id = pool.ids.slice(pool.offset, end);
  pool.offset = end;
  return id;
};
