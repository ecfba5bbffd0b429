/** The part of snappyjs (no bundled types) that src/metrics/remote-write.ts uses: Snappy's block format. */
declare module 'snappyjs' {
  export function compress(uncompressed: Uint8Array): Uint8Array;
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
