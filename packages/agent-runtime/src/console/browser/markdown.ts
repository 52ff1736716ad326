/**
 * A model's message as markdown, rendered with DOM calls only: marked's lexer turns the text
 * into tokens, and each token becomes elements whose text is set with `textContent` after
 * `clean`. Nothing is ever parsed as HTML: raw HTML in the text is shown as the text it is, an
 * image is never loaded (its address is shown), and a link shows where it goes beside its
 * words; only an http(s) address is made clickable, opening a new tab without a referrer.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { clean, el } from './dom.js';

/** Deeper nesting than this is shown as its raw text: a bound on recursion, not a style. */
const MAX_DEPTH = 24;

function text(value: string): Text {
  return document.createTextNode(clean(value));
}

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/**
 * Character references in prose (`&amp;`, `&#x2014;`), which marked leaves for an HTML parser
 * to decode: decoded here without one. Numeric ones and the few names people type are decoded
 * (a control or bidi character that comes out is then made visible by `clean`); any other name
 * is shown as written.
 */
export function decodeReferences(value: string): string {
  return value.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-z]{2,8}));/g,
    (whole, dec, hex, name) => {
      if (typeof name === 'string') return NAMED[name] ?? whole;
      const code = typeof dec === 'string' ? Number(dec) : Number.parseInt(String(hex), 16);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    },
  );
}

function children(tokens: readonly Token[] | undefined, depth: number): Node[] {
  return (tokens ?? []).map((t) => node(t, depth + 1));
}

function wrap<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls: string,
  tokens: readonly Token[] | undefined,
  depth: number,
): HTMLElementTagNameMap[K] {
  const n = el(tag, cls);
  n.append(...children(tokens, depth));
  return n;
}

/** An address a person may follow from here: http(s) only, as the URL parser normalised it. */
export function followable(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function link(t: Tokens.Link, depth: number): Node {
  const words = wrap('span', 'md-link-text', t.tokens, depth);
  const target = followable(t.href);
  const box = el('span', 'md-link');
  if (target !== undefined) {
    const a = el('a');
    a.href = target;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.referrerPolicy = 'no-referrer';
    a.append(words);
    box.append(a);
  } else box.append(words);
  // the words can say anything: where the link goes is always shown beside them
  if (!(t.autolink === true || t.text === t.href))
    box.append(el('span', 'md-target', ` <${t.href}>`));
  return box;
}

function list(t: Tokens.List, depth: number): Node {
  const n = el(t.ordered ? 'ol' : 'ul', 'md-list');
  if (t.ordered && typeof t.start === 'number' && t.start !== 1 && n instanceof HTMLOListElement)
    n.start = t.start;
  for (const item of t.items) {
    const li = el('li');
    li.append(...children(item.tokens, depth));
    n.append(li);
  }
  return n;
}

function table(t: Tokens.Table, depth: number): Node {
  const n = el('table', 'md-table');
  const head = el('tr');
  for (const cell of t.header) head.append(wrap('th', '', cell.tokens, depth));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const row of t.rows) {
    const tr = el('tr');
    for (const cell of row) tr.append(wrap('td', '', cell.tokens, depth));
    body.append(tr);
  }
  n.append(thead, body);
  return n;
}

function node(t: Token, depth: number): Node {
  if (depth > MAX_DEPTH) return text(t.raw);
  switch (t.type) {
    case 'paragraph':
      return wrap('p', 'md-p', (t as Tokens.Paragraph).tokens, depth);
    case 'heading':
      return wrap('p', `md-heading md-h${String((t as Tokens.Heading).depth)}`, t.tokens, depth);
    case 'text': {
      const inner = (t as Tokens.Text).tokens;
      if (inner !== undefined) return wrap('span', '', inner, depth);
      return text(decodeReferences((t as Tokens.Text).text));
    }
    case 'strong':
      return wrap('strong', '', (t as Tokens.Strong).tokens, depth);
    case 'em':
      return wrap('em', '', (t as Tokens.Em).tokens, depth);
    case 'del':
      return wrap('del', '', (t as Tokens.Del).tokens, depth);
    case 'codespan':
      return el('code', 'md-code', (t as Tokens.Codespan).text);
    case 'code': {
      const pre = el('pre', 'md-pre');
      pre.append(el('code', '', (t as Tokens.Code).text));
      return pre;
    }
    case 'blockquote':
      return wrap('blockquote', 'md-quote', (t as Tokens.Blockquote).tokens, depth);
    case 'list':
      return list(t as Tokens.List, depth);
    case 'table':
      return table(t as Tokens.Table, depth);
    case 'link':
      return link(t as Tokens.Link, depth);
    case 'image': {
      // never loaded (the page's policy forbids images too): the words and the address
      const image = t as Tokens.Image;
      return el('span', 'md-image', `[image: ${image.text}] <${image.href}>`);
    }
    case 'checkbox':
      // a task list item's box, as the text it was written as
      return el('span', 'md-task', (t as Tokens.Checkbox).checked ? '[x] ' : '[ ] ');
    case 'br':
      return el('br');
    case 'hr':
      return el('hr');
    case 'space':
    case 'def':
      return document.createTextNode('');
    case 'escape':
      return text((t as Tokens.Escape).text);
    case 'html':
      // raw HTML: the text as it was written, a block of it as a block
      return (t as Tokens.HTML).block ? el('div', 'md-raw', t.raw) : text(t.raw);
    default:
      // anything this page does not know: the text as it was written
      return text(t.raw);
  }
}

/** The rendered markdown of `source`. */
export function renderMarkdown(source: string): DocumentFragment {
  const out = document.createDocumentFragment();
  out.append(...Lexer.lex(source, { gfm: true }).map((t) => node(t, 0)));
  return out;
}

/**
 * Markdown that grows (a streaming message) drawn into `into`. Every block but the last is
 * closed by the one after it, so a draw lexes the text from the last block on and keeps the
 * elements of the blocks before it: a stream costs its last block per draw, not its whole text.
 * When that cannot be trusted (a link reference definition, which can change any block, a
 * carriage return, or blocks whose sources do not add up to the text) everything is lexed and
 * only the leading blocks whose source is unchanged are kept.
 */
export class GrowingMarkdown {
  readonly #into: HTMLElement;
  readonly #blocks: { readonly raw: string; readonly node: Node }[] = [];
  /** The link reference definitions of the last full lex: a change redraws every block. */
  #references = '{}';

  constructor(into: HTMLElement) {
    this.#into = into;
  }

  /** Where lexing may start: the index of the last block and its offset in `source`. */
  #resume(source: string): [number, number] {
    if (source.includes(']:') || source.includes('\r')) return [0, 0];
    const first = Math.max(0, this.#blocks.length - 1);
    let offset = 0;
    for (let i = 0; i < first; i++) {
      const raw = this.#blocks[i]?.raw ?? '';
      if (!source.startsWith(raw, offset)) return [0, 0];
      offset += raw.length;
    }
    return [first, offset];
  }

  draw(source: string): void {
    const [first, offset] = this.#resume(source);
    const tokens = Lexer.lex(source.slice(offset), { gfm: true });
    // a lex from the start knows every definition; a tail has none (no `]:` in the text)
    const references = offset === 0 ? JSON.stringify(tokens.links) : this.#references;
    let kept = first;
    if (references === this.#references) {
      while (kept - first < tokens.length && tokens[kept - first]?.raw === this.#blocks[kept]?.raw)
        kept += 1;
    }
    this.#references = references;
    for (const gone of this.#blocks.splice(kept)) this.#into.removeChild(gone.node);
    for (const t of tokens.slice(kept - first)) {
      const drawn = node(t, 0);
      this.#into.append(drawn);
      this.#blocks.push({ raw: t.raw, node: drawn });
    }
  }
}
