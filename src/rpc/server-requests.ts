/**
 * Server-initiated requests (docs/behaviour.md §4.4). Their ids live in their own space (the
 * server numbers from 0, colliding with ours) and are remembered for the connection's life,
 * so a reused id can never raise a second interaction or draw a second reply.
 */
import {
  isPinnedServerRequest,
  JSON_RPC_ERROR,
  type CodexServerRequestMethod,
} from '../protocol/wire-names.js';
import { requestIdKey, type CodexRequestId as RequestId } from '../protocol/wire.js';
import type { DropReason } from '../transport/types.js';

/** Diagnostics the JSON-RPC client reports; none carries an id or upstream text. */
// prettier-ignore
export type RpcDiagnosticToken =
  | 'server_request_declined' | 'server_request_handler_failed' | 'server_request_id_reused'
  | 'server_request_ledger_overflow' | 'callback_failed';

/** The most unique server-request ids one connection may ever carry; never evicted. */
export const SERVER_REQUEST_LEDGER_LIMIT = 4096;

/** Why the client stops trusting its connection: its ledger of server requests is full. */
export type RpcFenceReason = 'server_request_ledger_overflow';

/** Codes the client itself answers server requests with. */
const DECLINED_CODE = JSON_RPC_ERROR.methodNotFound;
const OVERFLOW_CODE = JSON_RPC_ERROR.invalidRequest;
const DECLINED_MESSAGE = 'method not supported by this client';

/** Answers an offer as one nobody took is answered: declined on its own id. */
export function declineServerRequest(offer: ServerRequestOffer): void {
  offer.reject(DECLINED_CODE, DECLINED_MESSAGE);
}
const OVERFLOW_MESSAGE = 'too many server requests on this connection';

export interface ServerRequestOffer {
  readonly id: RequestId;
  readonly method: string;
  readonly params: unknown;
  /** Answers with a result; false if this request was already answered or retired. */
  respond(result: unknown): boolean;
  /** Answers with an error; false if this request was already answered or retired. */
  reject(code: number, message: string): boolean;
  /** Stops awaiting an answer without writing anything; false if no longer outstanding. */
  retire(): boolean;
}

/**
 * Return `true` to take the request (answer later through the offer). Any other value, or a
 * throw, declines it: typed `unknown` so a handler that forgets to return cannot stall a turn.
 */
export type ServerRequestHandler = (offer: ServerRequestOffer) => unknown;

export interface RpcDiagnostic {
  readonly token: RpcDiagnosticToken;
  readonly level: 'debug' | 'warning' | 'error';
  /** Present only for a pinned server-request method (docs/behaviour.md §9.9). */
  readonly method?: CodexServerRequestMethod;
}

export interface ServerRequestLedgerDeps {
  readonly send: (frame: object) => void;
  readonly handler: ServerRequestHandler;
  readonly drop: (reason: DropReason) => void;
  readonly diagnose: (diagnostic: RpcDiagnostic) => void;
  readonly fence: (reason: RpcFenceReason) => void;
  readonly limit?: number;
}

type EntryState = 'outstanding' | 'answered' | 'retired';
interface Entry {
  state: EntryState;
  readonly id: RequestId;
}

export interface ServerRequestLedger {
  receive(id: RequestId, method: string, params: unknown): void;
  readonly size: number;
  readonly outstanding: number;
  readonly overflowed: boolean;
}

function errorReply(id: RequestId, code: number, message: string): object {
  return { id, error: { code, message } };
}

function methodTag(method: string): { method?: CodexServerRequestMethod } {
  return isPinnedServerRequest(method) ? { method } : {};
}

export function createServerRequestLedger(deps: ServerRequestLedgerDeps): ServerRequestLedger {
  const limit = deps.limit ?? SERVER_REQUEST_LEDGER_LIMIT;
  const entries = new Map<string, Entry>();
  let overflowed = false;

  // The single gate every reply passes through: at most one answer per remembered id.
  function answer(entry: Entry, frame: object): boolean {
    if (entry.state !== 'outstanding') return false;
    entry.state = 'answered';
    deps.send(frame);
    return true;
  }

  function overflow(id: RequestId): void {
    deps.send(errorReply(id, OVERFLOW_CODE, OVERFLOW_MESSAGE));
    for (const entry of entries.values()) {
      answer(entry, errorReply(entry.id, OVERFLOW_CODE, OVERFLOW_MESSAGE));
    }
    deps.diagnose({ token: 'server_request_ledger_overflow', level: 'error' });
    if (!overflowed) {
      overflowed = true;
      deps.fence('server_request_ledger_overflow');
    }
  }

  function receive(id: RequestId, method: string, params: unknown): void {
    const key = requestIdKey(id);
    const known = entries.get(key);
    if (known !== undefined) {
      // Outstanding: answering would settle the first request. Remembered: reuse is never served.
      if (known.state === 'outstanding') deps.drop('duplicate_server_request');
      else deps.diagnose({ token: 'server_request_id_reused', level: 'warning' });
      return;
    }
    if (entries.size >= limit) {
      overflow(id);
      return;
    }
    const entry: Entry = { state: 'outstanding', id };
    entries.set(key, entry);

    const offer: ServerRequestOffer = {
      id,
      method,
      params,
      respond: (result) => answer(entry, { id, result }),
      reject: (code, message) => answer(entry, errorReply(id, code, message)),
      retire: () => {
        if (entry.state !== 'outstanding') return false;
        entry.state = 'retired';
        return true;
      },
    };

    let taken = false;
    try {
      taken = deps.handler(offer) === true;
    } catch {
      deps.diagnose({
        token: 'server_request_handler_failed',
        level: 'warning',
        ...methodTag(method),
      });
    }
    // A declined request is answered on its own id so a blocking request never stalls a turn.
    if (!taken && answer(entry, errorReply(id, DECLINED_CODE, DECLINED_MESSAGE))) {
      deps.diagnose({ token: 'server_request_declined', level: 'debug', ...methodTag(method) });
    }
  }

  return {
    receive,
    get size() {
      return entries.size;
    },
    get outstanding() {
      let n = 0;
      for (const entry of entries.values()) if (entry.state === 'outstanding') n += 1;
      return n;
    },
    get overflowed() {
      return overflowed;
    },
  };
}
