/**
 * The page's credential and its calls to the API. The printed address carries a one-time code
 * in its fragment; the page trades it (POST /api/exchange) for the bearer token, keeps the
 * token in this tab's sessionStorage and leaves the spent code behind in the history.
 */
import { byId, setStatus, str } from './dom.js';

const TOKEN_KEY = 'relvo.token';
let token = '';

export interface Reply {
  readonly ok: boolean;
  readonly status: number;
  readonly data: Record<string, unknown>;
}

export function showLogin(why?: string): void {
  byId('login').classList.remove('hidden');
  byId('app').classList.add('hidden');
  if (why !== undefined) byId('login-why').textContent = why;
}

async function json(res: Response): Promise<Record<string, unknown>> {
  try {
    const data: unknown = await res.json();
    return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The token: from a code in the fragment (traded once), else from this tab's storage. */
export async function readCredential(): Promise<boolean> {
  const m = /^#code=([A-Za-z0-9_-]{1,128})$/.exec(location.hash);
  // the fragment goes at once, spent or not: nothing in the address bar is worth copying
  if (location.hash !== '') history.replaceState(null, '', location.pathname);
  if (m !== null) {
    const res = await fetch('/api/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: m[1] }),
    });
    const data = await json(res);
    if (res.ok && typeof data['token'] === 'string') {
      sessionStorage.setItem(TOKEN_KEY, data['token']);
    } else {
      showLogin(`This address was refused (${str(data['refused'], String(res.status))}).`);
      return false;
    }
  }
  token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  return token !== '';
}

export function useToken(value: string): void {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function authHeader(): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export async function api(method: string, path: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = authHeader();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = await json(res);
  if (res.status === 401) showLogin();
  return { ok: res.ok, status: res.status, data };
}

/** Another tab on a fresh one-time code of its own (its own sessionStorage starts empty). */
export async function openAnotherTab(): Promise<void> {
  const res = await api('POST', '/api/codes', {});
  if (!res.ok || typeof res.data['code'] !== 'string') {
    setStatus(`refused: ${str(res.data['refused'], String(res.status))}`);
    return;
  }
  window.open(`${location.pathname}#code=${res.data['code']}`, '_blank', 'noopener');
}
