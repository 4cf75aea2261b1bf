/** The report's stylesheet, inlined under the page's Content-Security-Policy hash. */
export const STYLE = `
:root { --fail: #c62828; --pass: #2e7d32; --na: #757575; --warn: #ef6c00; --ink: #1d232b; --muted: #5f6b7a;
  --line: #e1e5ea; --bg: #f6f8fa; --card: #fff; --accent: #3451b2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { background: var(--ink); color: #fff; padding: 14px 24px; display: flex; align-items: baseline; gap: 16px; }
header h1 { font-size: 18px; margin: 0; }
header .meta { color: #b8c2cc; font-size: 12px; }
main { padding: 16px 24px 48px; max-width: 1400px; margin: 0 auto; }
section { margin-bottom: 24px; }
h2 { font-size: 15px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
h3 { font-size: 14px; margin: 14px 0 6px; }
h4 { font-size: 13px; margin: 10px 0 4px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 140px; }
.card .big { font-size: 26px; font-weight: 650; }
.card .label { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f5; font-weight: 600; font-size: 12px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; font-weight: 600; color: #fff; white-space: nowrap; }
.v-pass { background: var(--pass); } .v-fail { background: var(--fail); } .v-not-applicable, .v-skipped { background: var(--na); }
.filters { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 10px; position: sticky; top: 0;
  background: var(--bg); padding: 8px 0; z-index: 1; }
.filters input[type=search] { width: 320px; padding: 6px 8px; border: 1px solid #c5ccd4; border-radius: 6px; font: inherit; }
.filters select { padding: 5px; border-radius: 6px; border: 1px solid #c5ccd4; font: inherit; }
.count { color: var(--muted); font-size: 12px; }
button.more { margin-top: 8px; padding: 5px 12px; border: 1px solid #c5ccd4; background: var(--card); border-radius: 6px; cursor: pointer; font: inherit; }
details.workup { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 8px; }
details.workup > summary { padding: 8px 12px; cursor: pointer; display: flex; gap: 10px; align-items: center; }
details.workup > summary .wid { font-weight: 600; }
details.workup > .body { padding: 4px 16px 16px; border-top: 1px solid var(--line); }
.note { background: #fbfcfd; border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; }
.note li, .note p { margin: 4px 0; }
.s-uncited { background: #fff3cd; border-bottom: 2px dotted var(--warn); }
.s-unsupported { background: #fde2e1; border-bottom: 2px solid var(--fail); }
.cite { font-family: ui-monospace, monospace; font-size: 11px; padding: 0 3px; margin-left: 2px; border-radius: 4px; border: 1px solid; }
.c-resolved { color: var(--pass); border-color: #a5d6a7; background: #e8f5e9; }
.c-failed-query { color: var(--warn); border-color: #ffcc80; background: #fff3e0; }
.c-dangling { color: var(--fail); border-color: #ef9a9a; background: #ffebee; text-decoration: line-through; }
.c-unsupported { color: #fff; border-color: var(--fail); background: var(--fail); }
.legend { display: flex; gap: 10px; flex-wrap: wrap; font-size: 12px; margin: 6px 0; }
.muted { color: var(--muted); }
.path { display: flex; gap: 4px; align-items: center; flex-wrap: wrap; margin: 3px 0; }
.hop { font-family: ui-monospace, monospace; font-size: 12px; padding: 1px 6px; border-radius: 4px; border: 1px solid var(--line); background: #eef1f5; }
.hop.ok { border-color: #a5d6a7; background: #e8f5e9; } .hop.miss { border-color: #ef9a9a; background: #ffebee; }
.timeline td.content { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; word-break: break-word; max-width: 640px; }
.bar { height: 8px; background: var(--accent); border-radius: 2px; min-width: 1px; }
tr.err td { background: #fff5f5; } tr.redundant td { background: #fffaf0; }
.t-thought { background: #78909c; } .t-tool_call { background: var(--accent); } .t-observation { background: #00897b; } .t-answer { background: #6a1b9a; }
.charts { display: flex; gap: 14px; flex-wrap: wrap; }
.chart { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; }
.chart .label { font-size: 12px; color: var(--muted); }
.chart polyline { fill: none; stroke: var(--accent); stroke-width: 2; }
.chart circle { fill: var(--accent); }
.chart line { stroke: var(--line); }
.hidden { display: none; }
/* A phone (390 px): nothing may push the page sideways. Wide tables scroll inside their own box, long ids and
   paths wrap, fixed widths give way to the screen's. */
@media (max-width: 720px) {
  header { padding: 10px 12px; flex-wrap: wrap; gap: 4px 12px; }
  main { padding: 12px 12px 32px; overflow-wrap: anywhere; }
  table { display: block; overflow-x: auto; max-width: 100%; }
  .filters input[type=search] { width: 100%; }
  .card { min-width: 0; flex: 1 1 140px; }
  .chart, .chart svg { max-width: 100%; }
  .chart svg { height: auto; }
  .timeline td.content { max-width: 70vw; }
  details.workup > summary { flex-wrap: wrap; }
  details.workup > .body { padding: 4px 8px 12px; }
}
.v-flaky { background: var(--warn); margin-left: 4px; }
.errorbar .axis { stroke: var(--line); stroke-width: 2; } .errorbar .range { stroke: var(--accent); stroke-width: 2; }
.errorbar circle { fill: var(--ink); }
.scroll { overflow-x: auto; }
table.matrix td.cell { text-align: center; } table.matrix td.flaky { outline: 2px dashed var(--warn); outline-offset: -3px; }
`;
