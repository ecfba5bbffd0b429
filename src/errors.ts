/** One error catalogue for spgate itself (not for the API under test). Codes are stable. */

export const ERROR_CATALOGUE = {
  SPGATE_ERR_USAGE: { exit: 2, summary: 'invalid command-line usage (unknown flag, missing argument)' },
  SPGATE_ERR_FILE_NOT_FOUND: { exit: 2, summary: 'a file named on the command line does not exist or cannot be read' },
  SPGATE_ERR_TARGET_INVALID: { exit: 2, summary: 'the target file does not parse or fails validation' },
  SPGATE_ERR_PROFILE_INVALID: { exit: 2, summary: 'a load profile file does not parse or fails validation' },
  SPGATE_ERR_PROFILE_UNKNOWN: { exit: 2, summary: 'no built-in profile has that name and no such file exists' },
  SPGATE_ERR_SUITE_UNKNOWN: { exit: 2, summary: 'no conformance suite has that name' },
  SPGATE_ERR_CHECK_UNKNOWN: { exit: 2, summary: 'no conformance check has that id' },
  SPGATE_ERR_BASE_URL_INVALID: { exit: 2, summary: 'the base URL is not an absolute http(s) URL' },
  SPGATE_ERR_KEY_ENV_MISSING: { exit: 2, summary: 'a key given as env:NAME names an unset environment variable' },
  SPGATE_ERR_CAPS_REQUIRED: { exit: 2, summary: 'a non-loopback target must state maxRps' },
  SPGATE_ERR_WRITES_NOT_ALLOWED: { exit: 2, summary: 'the run needs writes but the target file does not set allowWrites' },
  SPGATE_ERR_RESULTS_INVALID: { exit: 2, summary: 'a results JSON file does not parse or fails validation' },
  SPGATE_ERR_TRACE_INVALID: { exit: 2, summary: 'a trace file has a line that is not a valid trace record' },
  SPGATE_ERR_INIT_KEY_REFUSED: { exit: 2, summary: '`spgate init`: the target refused the key (401/403)' },
  SPGATE_ERR_INIT_NOT_API: { exit: 2, summary: "`spgate init`: the base URL did not answer GET /me with the API's JSON" },
  SPGATE_ERR_OUTPUT_EXISTS: { exit: 2, summary: 'the output file exists already (pass --force to replace it)' },
  SPGATE_ERR_SHARD_INVALID: { exit: 2, summary: 'a --shard value, or a shard results file or trace given to merge, is not a usable shard' },
  SPGATE_ERR_SHARD_MISMATCH: {
    exit: 2,
    summary: 'shard results given to merge come from different runs (profile, target, shard count) or repeat a shard',
  },
  SPGATE_ERR_COMPARE_MISMATCH: {
    exit: 2,
    summary: '`spgate compare`: the two runs ran different load profiles (no profile in common, or one name with another route mix)',
  },
  SPGATE_ERR_TLS_CONFIG: {
    exit: 2,
    summary: "a file of the target file's tls block is missing, unreadable or not a usable PEM certificate or key",
  },
  SPGATE_ERR_PROXY_INVALID: {
    exit: 2,
    summary: 'HTTPS_PROXY/HTTP_PROXY is not a usable proxy URL, or the command cannot go through a proxy',
  },
  SPGATE_ERR_TLS: {
    exit: 3,
    summary: 'the TLS handshake with the target failed (certificate not trusted, name mismatch, client certificate refused or required)',
  },
  SPGATE_ERR_HAR_INVALID: { exit: 2, summary: 'a HAR file does not parse as HAR 1.2 or has no usable entries' },
  SPGATE_ERR_NO_VIOLATION: {
    exit: 2,
    summary: '`spgate shrink`: the trace shows no rate-limit violation (or none of --rule) to reproduce',
  },
  SPGATE_ERR_NOT_REPRODUCED: {
    exit: 3,
    summary: '`spgate shrink`: the violation did not reproduce against the target (or the shrunk schedule stopped reproducing)',
  },
  SPGATE_ERR_BUDGET_NOT_REFILLED: {
    exit: 3,
    summary: "the target's budget was not full again within the bound (--max-wait), or its headers never say when it will be",
  },
  SPGATE_ERR_TARGET_UNREACHABLE: { exit: 3, summary: 'the target did not accept connections' },
  SPGATE_ERR_NOTHING_JUDGED: {
    exit: 3,
    summary: 'checks ran but not one could reach a verdict (the target answered nothing they could judge)',
  },
  SPGATE_ERR_ABORTED: { exit: 3, summary: 'the run was interrupted (SIGINT/SIGTERM) and partial results were written' },
  SPGATE_ERR_REPORTER_FAILED: { exit: 1, summary: 'a reporter threw; the results file was still written' },
  SPGATE_ERR_INTERNAL: { exit: 3, summary: 'an unexpected internal error (a bug in spgate)' },
} as const;

export type SpgateErrorCode = keyof typeof ERROR_CATALOGUE;

/** An error spgate reports to the user as one line, with a stable code and an exit code. */
export class SpgateError extends Error {
  readonly code: SpgateErrorCode;
  readonly exitCode: number;
  constructor(code: SpgateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpgateError';
    this.code = code;
    this.exitCode = ERROR_CATALOGUE[code].exit;
  }
}

/** Formats any thrown value as the one line spgate prints (never a stack trace). */
export function oneLine(err: unknown): string {
  // Always one line: a message that quotes input could otherwise carry a newline.
  if (err instanceof SpgateError) return `spgate: ${err.code}: ${err.message.replace(/\s*\r?\n\s*/g, ' ')}`;
  const msg = err instanceof Error ? err.message : String(err);
  return `spgate: SPGATE_ERR_INTERNAL: ${msg.split('\n')[0]}`;
}
