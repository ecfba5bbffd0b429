import { describe, expect, it } from 'vitest';
import { parseXml } from './xml.js';

// The JUnit tests are only as good as this parser's strictness, so it is tested on what it must reject.
describe('strict XML mini-parser', () => {
  it('parses nested elements, attributes, entities and text', () => {
    const root = parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 &amp; 2" y=\'&#10;\'><b/>t&lt;x&gt;<c>q</c></a>\n');
    expect(root.name).toBe('a');
    expect(root.attrs).toEqual({ x: '1 & 2', y: '\n' });
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.text).toBe('t<x>');
  });
  it.each([
    ['mismatched tags', '<a><b></a></b>'],
    ['bare ampersand', '<a>x & y</a>'],
    ['unknown entity', '<a>&nbsp;</a>'],
    ['unquoted attribute', '<a x=1/>'],
    ['duplicate attribute', '<a x="1" x="2"/>'],
    ['< in attribute', '<a x="<"/>'],
    ['control character', '<a>\u0007</a>'],
    ['lone surrogate', '<a>\uD800</a>'],
    ['two roots', '<a/><b/>'],
    ['unclosed', '<a><b/>'],
    ['raw < in text', '<a>1 < 2</a>'],
    ['reference to control char', '<a>&#7;</a>'],
  ])('rejects %s', (_name, doc) => {
    expect(() => parseXml(doc)).toThrow();
  });
});
