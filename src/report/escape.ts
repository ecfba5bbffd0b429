/**
 * Escaping for every output format. All text in a report may come from the server under test, so nothing is
 * interpolated raw: HTML goes through the `html` tag, embedded JSON through `jsonForScript`, XML through
 * `xmlText`/`xmlAttr`, Markdown through `mdText`.
 */

/** HTML that is already safe to emit (produced by the `html` tag or `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

function renderValue(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(renderValue).join('');
  return escapeHtml(String(v));
}

/** Tagged template: interpolated values are escaped unless they are SafeHtml; arrays are concatenated. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += renderValue(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Marks trusted markup (our own constants, never server text) as safe. */
export function raw(s: string): SafeHtml {
  return new SafeHtml(s);
}

/**
 * JSON for a <script type="application/json"> block: `<`, `>`, `&` and the JS line separators are
 * \u-escaped so no value can close the script element or open a comment, whatever the server sent.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inline JavaScript source (a library): only `</script` and `<!--` can break out of the element. */
export function scriptSource(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * Characters XML 1.0 forbids (C0 controls except tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) become
 * U+FFFD, so the file always parses, whatever bytes the server returned.
 */
export function xmlClean(s: string): string {
  return s.replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/** Escapes text for XML element content. */
export function xmlText(s: string): string {
  return xmlClean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted XML attribute (newlines kept as character references). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/**
 * Escapes text for a Markdown table cell or paragraph: HTML-significant characters become entities (GitHub
 * renders inline HTML), Markdown punctuation is backslash-escaped, newlines become spaces.
 */
export function mdText(s: string, maxLength = 300): string {
  const oneLine = s.replace(/[\r\n\t]+/g, ' ');
  const cut = (oneLine.length > maxLength ? oneLine.slice(0, maxLength - 1) + '…' : oneLine).replace(/[\u0000-\u001F\u007F]/g, '');
  return cut
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}
