import { randomFillSync } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export type IdFactory = (prefix: IdPrefix) => string;

// 128 random bits per id, as 32 hex digits; the bytes come from a pool refilled 256 ids at a
// time and turned into hex at once (an envelope id is minted per event: one syscall, then one
// hex conversion, per id both showed in the profile)
const ID_HEX = 32;
const pool = Buffer.alloc((ID_HEX / 2) * 256);
let hex = '';
let offset = 0;

export const randomId: IdFactory = (prefix) => {
  if (offset === hex.length) {
    randomFillSync(pool);
    hex = pool.toString('hex');
    offset = 0;
  }
  const id = `${prefix}_${hex.slice(offset, offset + ID_HEX)}`;
  offset += ID_HEX;
  return id;
};
