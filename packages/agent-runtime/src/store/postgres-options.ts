/**
 * A `pg.Pool` the host created, described by the part the store uses, so that the runtime's
 * types never need `pg`'s (an optional peer): any pg 8 `Pool` fits.
 */
export interface HostPgPool {
  connect(): Promise<unknown>;
  end(): Promise<void>;
}

export interface PostgresEventStoreOptions {
  /** `postgres://…`; never logged nor repeated in an error. Exactly one of this and `pool`. */
  readonly connectionString?: string;
  /** A pool the host owns (`new pg.Pool(…)`): the store uses it and never ends it. */
  readonly pool?: HostPgPool;
  /** The PostgreSQL schema the store's tables live in (created when absent). Default `relvo`. */
  readonly schema?: string;
  /**
   * How long a session stays this runtime's without a renewal (ms, database clock). Renewed
   * every third of it, after a probe write that succeeded, and at every append. After it lapses
   * another runtime may take the session over, and this one's appends are refused
   * (`lease_lost`); this runtime counts it lost nine tenths of it after its last confirmed
   * renewal (docs/scaling.md). Default 30 000.
   */
  readonly leaseMs?: number;
  /** Size of the pool the store creates from `connectionString`. Default 10. */
  readonly maxConnections?: number;
  /** Bound on establishing a connection (ms). Default 5 000. */
  readonly connectTimeoutMs?: number;
  /**
   * A subscription following a session another runtime writes rides through a restart of the
   * server: after a failure it waits, listens again and reads on from its last sequence, up to
   * this many times in a row before it ends with `store_io`. Default 8.
   */
  readonly followRetries?: number;
  /** The first of those waits (ms); each next one doubles, up to 5 000. Default 250. */
  readonly followRetryMs?: number;
  /**
   * The log's record key (ADR-0050), shared by every host of the fleet and kept outside the
   * database: base64 or hex of at least 32 bytes. Without it (or `recordKeyFile`) no session of
   * this log resumes or forks (`record_key_missing`).
   */
  readonly recordKey?: string;
  /** A file holding the record key, readable by its owner alone (chmod 600). */
  readonly recordKeyFile?: string;
  /** Only for tests of migrations: stop at this schema version. */
  readonly migrateTo?: number;
}
