import { randomUUID } from 'node:crypto';

/** Runtime ids (docs/spi.md §17): `ses_`, `trn_`, `run_`, `int_`, and `evt_` for envelopes. */
export const ID_PREFIXES = ['ses', 'trn', 'run', 'int', 'evt'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export type IdFactory = (prefix: IdPrefix) => string;

export const randomId: IdFactory = (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`;
