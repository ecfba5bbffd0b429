/**
 * The part of chartjs-node-canvas that src/report/png.ts uses. The package is an optional dependency (its
 * native `canvas` needs cairo), so the typecheck must not need it installed. This file is a script, not a
 * module (no top-level import or export), so its `declare module` is an ambient declaration, which the
 * checker uses in preference to the installed package's own types: the typecheck is the same with or
 * without the package.
 */
declare module 'chartjs-node-canvas' {
  export interface ChartJSNodeCanvasOptions {
    width: number;
    height: number;
    backgroundColour?: string;
  }

  export class ChartJSNodeCanvas {
    constructor(options: ChartJSNodeCanvasOptions);
    renderToBuffer(configuration: unknown, mimeType?: 'image/png'): Promise<Buffer>;
  }
}
