/** Traces: NDJSON records of every response, written during load runs and read by analyze/replay. */
export { TraceRecord } from './record.js';
export { createTraceWriter, type TraceWriter } from './writer.js';
export { readTrace, parseTraceLine } from './reader.js';
export { traceToSamples, sampleToRecord } from './samples.js';
export { sanitizePath, sanitizeText, sanitizeRecord } from './sanitize.js';
export { traceLatency } from './latency.js';
