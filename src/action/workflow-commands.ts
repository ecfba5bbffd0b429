/**
 * GitHub Actions' workflow commands and files, written by hand (they are lines of text): annotations on
 * stdout, `name=value` outputs in $GITHUB_OUTPUT, Markdown in $GITHUB_STEP_SUMMARY. Pure formatting here.
 */

/** Escapes an annotation's message (GitHub's rules: %, CR, LF). */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes an annotation property (title): also `:` and `,`, which end a property. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One annotation line: `::error title=…::message`. */
export function annotation(level: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/** `name=value` lines for $GITHUB_OUTPUT; a value is one line (a multi-line one uses the delimiter form). */
export function outputLines(outputs: Record<string, string | number>): string {
  return Object.entries(outputs).map(([k, v]) => {
    const s = String(v);
    if (!/[\r\n]/.test(s)) return `${k}=${s}\n`;
    const delim = `spgate_${Math.random().toString(36).slice(2)}`;
    return `${k}<<${delim}\n${s}\n${delim}\n`;
  }).join('');
}
