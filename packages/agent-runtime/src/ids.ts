import { randomFillSync } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export type IdFactory = (prefix: IdPrefix) => string;

// 128 random bits per id, as 32 hex digits; the bytes come from a pool refilled 256 ids at a
// time (an envelope id is minted per event, and one syscall per id showed in the profile)
const ID_BYTES = 16;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

export const randomId: IdFactory = (prefix) => {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}_${hex}`;
};
