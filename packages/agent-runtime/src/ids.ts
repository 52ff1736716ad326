import { randomFillSync } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt'] as const;
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

export const randomId: IdFactory = (prefix) => {
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
