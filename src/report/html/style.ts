/** The report's stylesheet: a calm light theme, readable tables, coloured status badges, print-friendly. */
export const REPORT_CSS = `
:root { --fg:#111827; --muted:#6b7280; --line:#e5e7eb; --bg:#f6f7f9; --card:#fff;
  --pass:#15803d; --pass-bg:#dcfce7; --fail:#b91c1c; --fail-bg:#fee2e2; --warn:#b45309; --warn-bg:#fef3c7;
  --skip:#4b5563; --skip-bg:#f3f4f6; --err:#7e22ce; --err-bg:#f3e8ff; --accent:#2563eb; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color:var(--fg); background:var(--bg); }
a { color: var(--accent); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
pre { background:#0f172a; color:#e2e8f0; padding:10px 12px; border-radius:6px; overflow:auto; white-space:pre-wrap; word-break:break-word; margin:6px 0; max-height: 420px; }
header.banner { padding: 22px 32px; color:#fff; }
header.banner.passed { background: linear-gradient(90deg,#166534,#15803d); }
header.banner.failed { background: linear-gradient(90deg,#991b1b,#b91c1c); }
header.banner.aborted, header.banner.error { background: linear-gradient(90deg,#92400e,#b45309); }
header.banner h1 { margin:0 0 4px; font-size: 24px; letter-spacing: .2px; }
header.banner .sub { opacity:.92; }
header.banner .sub span + span::before { content:" · "; }
nav.toc { position: sticky; top:0; z-index: 5; background: #fff; border-bottom:1px solid var(--line); padding: 8px 32px; display:flex; gap:18px; flex-wrap:wrap; }
nav.toc a { text-decoration:none; color: var(--fg); font-weight: 500; }
nav.toc a:hover { color: var(--accent); }
main { max-width: 1280px; margin: 0 auto; padding: 20px 32px 60px; }
section.card { scroll-margin-top: 52px; background: var(--card); border:1px solid var(--line); border-radius: 10px; padding: 18px 22px; margin: 18px 0; }
h2 { margin: 0 0 12px; font-size: 19px; }
h3 { margin: 18px 0 8px; font-size: 16px; }
h4 { margin: 14px 0 6px; font-size: 14px; }
.tiles { display:grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; margin: 10px 0 4px; }
.tile { border:1px solid var(--line); border-radius: 8px; padding: 8px 12px; background:#fcfcfd; }
.tile .v { font-size: 20px; font-weight: 650; }
.tile .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .4px; }
.tile.bad .v { color: var(--fail); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
th, td { text-align:left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .4px; color: var(--muted); font-weight: 600; background: #fafafa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.matrix td:nth-child(2) .mono { white-space: nowrap; }
tr.part-row td { background:#f8fafc; font-weight: 600; }
.badge { display:inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.passed, .badge.ok { color: var(--pass); background: var(--pass-bg); }
.badge.failed, .badge.error-sev, .badge.breached { color: var(--fail); background: var(--fail-bg); }
.badge.warned, .badge.warning { color: var(--warn); background: var(--warn-bg); }
.badge.skipped { color: var(--skip); background: var(--skip-bg); }
.badge.inconclusive { color: #92400e; background: #fef3c7; }
.badge.error, .badge.aborted { color: var(--err); background: var(--err-bg); }
.basis { font-size: 11px; color: var(--muted); border:1px solid var(--line); border-radius: 4px; padding: 0 5px; }
.muted { color: var(--muted); }
.part-summary { display:flex; gap: 6px; flex-wrap: wrap; margin: 0 0 8px; }
details.finding { border:1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 8px; margin: 10px 0; background:#fff; }
details.finding.warning { border-left-color: var(--warn); }
details.finding > summary { cursor: pointer; padding: 10px 14px; list-style: none; display:flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
details.finding > summary::-webkit-details-marker { display:none; }
details.finding > summary::before { content: "▸"; color: var(--muted); }
details.finding[open] > summary::before { content: "▾"; }
details.finding .body { padding: 0 16px 14px; }
.ev { display:grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.ev > div > .label { font-size: 12px; text-transform: uppercase; color: var(--muted); letter-spacing: .4px; }
.ev pre.expected { background:#052e16; }
.ev pre.actual { background:#450a0a; }
details.exchange { margin: 8px 0; border: 1px dashed var(--line); border-radius: 6px; padding: 4px 10px; }
details.exchange > summary { cursor:pointer; }
.charts { display:grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
figure.chart { margin:0; border:1px solid var(--line); border-radius: 8px; padding: 10px 12px; background:#fff; }
figure.chart figcaption { font-size: 12.5px; color: var(--muted); margin-top: 4px; }
figure.chart .title { font-weight: 600; margin-bottom: 6px; }
.chart-box { position: relative; height: 300px; }
.noscript { color: var(--muted); font-style: italic; }
dl.kv { display:grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; word-break: break-word; }
footer { color: var(--muted); text-align:center; font-size: 12px; padding: 20px; }
@media (max-width: 760px) { .ev { grid-template-columns: 1fr; } .charts { grid-template-columns: 1fr; } main { padding: 12px; } }
@media print { nav.toc { display:none; } details.finding { break-inside: avoid; } }
`;
