/**
 * A strict, small XML 1.0 parser for the JUnit tests: rejects anything a conforming parser would reject that
 * our writer could plausibly produce (bad characters, unknown entities, unquoted or duplicate attributes,
 * mismatched tags, text outside the root, '<' or '&' unescaped), and returns an element tree.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const BAD_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  return s.replace(/&([^;]*);|&/g, (m, body: string | undefined) => {
    if (body === undefined) throw new Error(`bare & near offset ${at}`);
    if (body in ENTITIES) return ENTITIES[body]!;
    const num = /^#x([0-9a-fA-F]+)$/.exec(body) ?? /^#([0-9]+)$/.exec(body);
    if (num) {
      const cp = parseInt(num[1]!, body.startsWith('#x') ? 16 : 10);
      const ch = String.fromCodePoint(cp);
      if (BAD_CHAR.test(ch)) throw new Error(`character reference to a forbidden character near ${at}`);
      return ch;
    }
    throw new Error(`unknown entity ${m} near offset ${at}`);
  });
}

/** Parses a complete document; throws with an offset on the first violation. */
export function parseXml(doc: string): XmlElement {
  if (BAD_CHAR.test(doc)) throw new Error('document contains a character XML forbids');
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(doc);
  if (decl) i = decl[0].length;
  const skipWs = (): void => {
    while (i < doc.length && /\s/.test(doc[i]!)) i++;
  };
  const parseElement = (): XmlElement => {
    if (doc[i] !== '<') throw new Error(`expected < at ${i}`);
    i++;
    const nm = NAME.exec(doc.slice(i));
    if (!nm) throw new Error(`bad element name at ${i}`);
    const el: XmlElement = { name: nm[0], attrs: {}, children: [], text: '' };
    i += nm[0].length;
    for (;;) {
      const before = i;
      skipWs();
      if (doc.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (doc[i] === '>') {
        i++;
        break;
      }
      if (i === before) throw new Error(`expected whitespace before attribute at ${i}`);
      const an = NAME.exec(doc.slice(i));
      if (!an) throw new Error(`bad attribute name at ${i}`);
      i += an[0].length;
      if (doc[i] !== '=') throw new Error(`expected = at ${i}`);
      i++;
      const q = doc[i];
      if (q !== '"' && q !== "'") throw new Error(`unquoted attribute at ${i}`);
      const end = doc.indexOf(q, i + 1);
      if (end < 0) throw new Error(`unterminated attribute at ${i}`);
      const rawVal = doc.slice(i + 1, end);
      if (rawVal.includes('<')) throw new Error(`< in attribute value at ${i}`);
      if (an[0] in el.attrs) throw new Error(`duplicate attribute ${an[0]} at ${i}`);
      el.attrs[an[0]] = decode(rawVal, i);
      i = end + 1;
    }
    for (;;) {
      const lt = doc.indexOf('<', i);
      if (lt < 0) throw new Error(`unclosed element ${el.name}`);
      const text = doc.slice(i, lt);
      if (text.includes(']]>')) throw new Error(`]]> in text at ${i}`);
      el.text += decode(text, i);
      i = lt;
      if (doc.startsWith('</', i)) {
        i += 2;
        if (!doc.startsWith(el.name, i)) throw new Error(`mismatched end tag at ${i}, expected ${el.name}`);
        i += el.name.length;
        skipWs();
        if (doc[i] !== '>') throw new Error(`bad end tag at ${i}`);
        i++;
        return el;
      }
      if (doc.startsWith('<!--', i)) {
        const end = doc.indexOf('-->', i);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
        continue;
      }
      el.children.push(parseElement());
    }
  };
  skipWs();
  const root = parseElement();
  skipWs();
  if (i !== doc.length) throw new Error(`content after the root element at ${i}`);
  return root;
}
