import { randomFillSync } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export type IdFactory = (prefix: IdPrefix) => string;

// 128 random bits per id, as 32 hex digits. Ids are minted 256 at a time per prefix, from one
// random fill, into one string they are sliced from: an envelope id is minted per event, and
// a syscall, a hex conversion and a concatenation per id each showed in the profile.
const ID_HEX = 32;
const POOL_IDS = 256;
const bytes = Buffer.alloc((ID_HEX / 2) * POOL_IDS);

interface Pool {
  ids: string;
  offset: number;
}
const pools = new Map<string, Pool>();

function refill(prefix: string, pool: Pool): void {
  randomFillSync(bytes);
  const hex = bytes.toString('hex');
  const parts: string[] = [];
  for (let at = 0; at < hex.length; at += ID_HEX)
    parts.push(`${prefix}_${hex.slice(at, at + ID_HEX)}`);
  pool.ids = parts.join('');
  pool.offset = 0;
}

export const randomId: IdFactory = (prefix) => {
  let pool = pools.get(prefix);
  if (pool === undefined) {
    pool = { ids: '', offset: 0 };
    pools.set(prefix, pool);
  }
  if (pool.offset === pool.ids.length) refill(prefix, pool);
  const end = pool.offset + prefix.length + 1 + ID_HEX;
  const id = pool.ids.slice(pool.offset, end);
  pool.offset = end;
  return id;
};
