/**
 * Credentials inside web addresses that a person is shown or a log stores: the userinfo
 * (`user:password@`) and the values of query or fragment parameters named like secrets
 * (`?token=…`, `#access_token=…`). The rest of the address stays, so a person still sees where
 * it leads. Addresses are found with a scheme (`https://…`) or without one (`evil.example/…`).
 */
import { REDACTED } from './redact.js';

/** A parameter name that usually carries a secret; a harmless one caught too is only hidden. */
const SECRET_NAME =
  /token|key|secret|pass|pwd|code|sig|auth|session|credential|jwt|otp|cookie|ticket|assertion/i;

// A scheme, then everything up to whitespace, a quote or a shell separator (`;`, `|`).
const WITH_SCHEME = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`<>;|]*/g;
// No scheme: optional `user:password@`, a dotted host ending in a letters-only label, then an
// optional port and path, query or fragment. Not inside a longer word, path or address.
const WITHOUT_SCHEME =
  /(?<![\w@./:%+-])(?:[^\s/@:'"`<>]{1,256}:[^\s/@'"`<>]{0,256}@)?(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}(?::\d{1,5})?(?:[/?#][^\s'"`<>;|]*)?(?![\w@-])/g;
// `//user@` or `//user:password@` after a scheme; `user:password@` at the start otherwise.
const USERINFO_AFTER_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#@]*@/;
const USERINFO_BARE = /^[^\s/@:]+:[^\s/@]*@/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** `a=1&token=x` → `a=1&token=[redacted]`; the text is kept as written otherwise. */
function redactParameters(part: string): string {
  return part
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) return pair;
      const name = pair.slice(0, eq);
      return SECRET_NAME.test(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The query and the fragment of an address (the text from the first `?` or `#`). */
function redactTail(address: string): string {
  const at = address.search(/[?#]/);
  if (at < 0) return address;
  let out = address.slice(0, at);
  // each `?` or `#` starts a part of `name=value` pairs
  for (const piece of address.slice(at).split(/(?=[?#])/))
    out += piece.charAt(0) + redactParameters(piece.slice(1));
  return out;
}

/** One address, as found in text (with or without a scheme). */
export function redactAddress(address: string): string {
  const withScheme = USERINFO_AFTER_SCHEME.exec(address);
  let out = address;
  if (withScheme !== null)
    out = `${withScheme[1] ?? ''}${REDACTED}@${address.slice(withScheme[0].length)}`;
  else if (USERINFO_BARE.test(address)) out = address.replace(USERINFO_BARE, `${REDACTED}@`);
  return redactTail(out);
}

/** Every address in free text, with or without a scheme, with its credentials redacted. */
export function redactAddressesIn(text: string): string {
  return text.replace(WITH_SCHEME, redactAddress).replace(WITHOUT_SCHEME, redactAddress);
}

/** Free text with every scheme-less address replaced whole (addresses with one are left). */
export function replaceBareAddresses(text: string, placeholder: string): string {
  return text.replace(WITHOUT_SCHEME, placeholder);
}
