/** DOM helpers of the console page: every value is written as text after `neutralise`. */
import { neutralise } from '../unsafe.js';

export function clean(value: unknown): string {
  return neutralise(String(value));
}

export function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

export function inputById(id: string): HTMLInputElement | HTMLTextAreaElement {
  const node = byId(id);
  if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) return node;
  throw new Error(`#${id} is not an input`);
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls = '',
  text?: unknown,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls !== '') node.className = cls;
  if (text !== undefined) node.textContent = clean(text);
  return node;
}

export function setStatus(text: string): void {
  byId('status').textContent = clean(text);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as text: strings as they are, anything else as its JSON; `fallback` when absent. */
export function str(value: unknown, fallback = ''): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
