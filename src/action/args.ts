/**
 * The action's `args` input as argv: split as a POSIX shell splits words, with nothing expanded. A YAML
 * input is one string, and splitting it on white space broke every quoted argument (a threshold such as
 * "read.p95 < 250"); running it through a shell would expand `$(…)` from whoever wrote the workflow input.
 */

/** Splits `text` into words: '…' keeps everything literally, "…" keeps spaces (\ escapes " \ $ `), \ escapes one character. */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + (text[++i] === '\n' ? '' : text[i]);
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new Error(`input args: unterminated ${quote === "'" ? 'single' : 'double'} quote`);
  if (word !== undefined) words.push(word);
  return words;
}
