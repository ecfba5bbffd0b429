import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html, jsonForScript, mdText, raw, scriptSource, xmlAttr, xmlText } from '../../src/report/escape.js';
import { HOSTILE } from './fixtures.js';

describe('escaping', () => {
  it('html tag escapes interpolations but not SafeHtml', () => {
    expect(html`<p title="${HOSTILE}">${HOSTILE}${raw('<b>ok</b>')}</p>`.value).toBe(
      '<p title="&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;">&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;<b>ok</b></p>',
    );
    expect(html`${['a<', html`<i>b</i>`, null, undefined, false, 3]}`.value).toBe('a&lt;<i>b</i>3');
  });

  it('jsonForScript never contains < > & or raw line separators and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const s = jsonForScript(v);
        expect(s).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(s)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 200, seed: 1 },
    );
    expect(jsonForScript({ x: HOSTILE })).not.toContain('</script');
  });

  it('scriptSource neutralises closing tags and comment openers in inlined code', () => {
    expect(scriptSource('a="</script>";b="<!--"')).toBe('a="<\\/script>";b="<\\!--"');
  });

  it('XML escaping keeps quotes and newlines inside attributes', () => {
    expect(xmlAttr('a"b\'c\nd<&>')).toBe('a&quot;b&apos;c&#10;d&lt;&amp;&gt;');
    expect(xmlText(']]> \u0001')).toBe(']]&gt; \uFFFD');
  });

  it('Markdown escaping stops HTML, table breaks and links', () => {
    const s = mdText(`${HOSTILE} | [x](javascript:alert(1))\nnext`);
    expect(s).not.toMatch(/[<>]/);
    expect(s).not.toMatch(/(^|[^\\])\|/);
    expect(s).not.toContain('\n');
    expect(s).toContain('\\[x\\]\\(javascript:alert\\(1\\)\\)');
    expect(mdText('x'.repeat(50), 10)).toHaveLength(10);
  });
});
