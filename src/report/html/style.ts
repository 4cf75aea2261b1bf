/** The report's stylesheet, inlined under the page's Content-Security-Policy hash. */
export const STYLE = `
:root { --fail: #c62828; --pass: #2e7d32; --na: #757575; --warn: #ef6c00; --ink: #1d232b; --muted: #5f6b7a;
  --line: #e1e5ea; --bg: #f6f8fa; --card: #fff; --accent: #3451b2; --head: #eef1f5; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { background: var(--ink); color: #fff; padding: 10px 24px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; }
header h1 { font-size: 18px; margin: 0; }
header .meta { color: #b8c2cc; font-size: 12px; }
main { padding: 12px 24px 48px; max-width: 1400px; margin: 0 auto; overflow-wrap: break-word; }
section, details.fold { margin-bottom: 24px; }
h2 { font-size: 15px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
h3 { font-size: 14px; margin: 14px 0 6px; }
h4 { font-size: 13px; margin: 10px 0 4px; }
details.fold > summary { cursor: pointer; list-style: none; margin-bottom: 8px; }
details.fold > summary::-webkit-details-marker { display: none; }
details.fold > summary h2 { display: inline; }
details.fold > summary::before { content: "\\25B8"; color: var(--muted); display: inline-block; width: 1.1em; }
details.fold[open] > summary::before { content: "\\25BE"; }
/* The counts: one compact row above the failures. */
.cards { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 6px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 4px 12px; min-width: 110px; }
.card .big { font-size: 20px; font-weight: 650; }
.card.c-fail .big { color: var(--fail); }
.card .label { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--head); font-weight: 600; font-size: 12px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; font-weight: 600; color: #fff; white-space: nowrap; }
.v-pass { background: var(--pass); } .v-fail { background: var(--fail); } .v-not-applicable, .v-skipped { background: var(--na); }
.v-flaky { background: var(--warn); margin-left: 4px; }
.filters { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; position: sticky; top: 0;
  background: var(--bg); padding: 6px 0; z-index: 3; }
.filters input[type=search] { width: 320px; max-width: 100%; padding: 6px 8px; border: 1px solid #c5ccd4; border-radius: 6px; font: inherit; }
.filters select { padding: 5px; border-radius: 6px; border: 1px solid #c5ccd4; font: inherit; }
.count { color: var(--muted); font-size: 12px; }
.place { color: var(--muted); font-size: 12px; }
button.link { background: none; border: 0; padding: 0; margin: 0; font: inherit; color: var(--accent); cursor: pointer;
  text-align: left; text-decoration: underline dotted; }
button.more { margin-top: 8px; padding: 5px 12px; border: 1px solid #c5ccd4; background: var(--card); border-radius: 6px; cursor: pointer; font: inherit; }
details.workup { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 8px;
  scroll-margin-top: 64px; }
details.workup > summary { padding: 8px 12px; cursor: pointer; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; }
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
.hop { font-family: ui-monospace, monospace; font-size: 12px; padding: 1px 6px; border-radius: 4px; border: 1px solid var(--line); background: var(--head); }
.hop.ok { border-color: #a5d6a7; background: #e8f5e9; } .hop.miss { border-color: #ef9a9a; background: #ffebee; }
.timeline td.content { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; max-width: 640px; }
.bar { height: 8px; background: var(--accent); border-radius: 2px; min-width: 1px; }
tr.err td { background: #fff5f5; } tr.redundant td { background: #fffaf0; }
.t-thought { background: #78909c; } .t-tool_call { background: var(--accent); } .t-observation { background: #00897b; } .t-answer { background: #6a1b9a; }
/* Trend charts: a grid of equal cells; each SVG scales to its cell, axes and labels with it. */
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(300px, 100%), 1fr)); gap: 12px; }
.chart { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
.chart .label { font-size: 12px; color: var(--muted); }
.chart .label .title { color: var(--ink); font-weight: 600; }
.chart svg { display: block; width: 100%; height: auto; max-width: 520px; overflow: visible; }
.chart rect.plot { fill: #fbfcfd; stroke: none; }
.chart line.grid { stroke: var(--line); }
.chart line.axis, .chart line.tick { stroke: var(--muted); }
.chart text { font-size: 10px; fill: var(--muted); }
.chart text.caption { font-size: 10px; font-style: italic; }
.chart polyline { fill: none; stroke: var(--accent); stroke-width: 2; }
.chart circle { fill: var(--accent); }
.errorbar .axis { stroke: var(--line); stroke-width: 2; } .errorbar .range { stroke: var(--accent); stroke-width: 2; }
.errorbar circle { fill: var(--ink); }
/* The task x criterion matrix: in a box no taller than the screen, so its sideways scroll bar is in view, with the
   header row and the task column held in place while it scrolls. */
.matrix-box { overflow: auto; max-height: 70vh; border: 1px solid var(--line); scrollbar-width: auto; scrollbar-color: #8995a3 var(--head); }
.matrix-box::-webkit-scrollbar { height: 12px; width: 12px; background: var(--head); }
.matrix-box::-webkit-scrollbar-thumb { background: #8995a3; border-radius: 6px; }
table.matrix { border: 0; border-collapse: separate; border-spacing: 0; width: auto; min-width: 100%; }
table.matrix th { position: sticky; top: 0; z-index: 2; min-width: 4.5em; max-width: 9em; vertical-align: bottom; }
table.matrix th:first-child, table.matrix td:first-child { position: sticky; left: 0; z-index: 1; background: var(--card);
  border-right: 1px solid var(--line); max-width: 16em; }
table.matrix th:first-child { z-index: 3; background: var(--head); }
table.matrix td.cell { text-align: center; }
table.matrix .group { display: block; color: var(--muted); font-weight: 400; }
table.matrix th.first, table.matrix td.first { border-left: 2px solid #c5ccd4; }
table.matrix td.flaky { outline: 2px dashed var(--warn); outline-offset: -3px; }
.scroll-hint { font-size: 12px; color: var(--muted); margin: 0 0 4px; }
.hidden { display: none; }
/* A phone: tables become stacks of cards, one row a card and each cell a line led by its column's name, so nothing is
   squeezed into a column a letter wide and nothing pushes the page sideways. */
@media (max-width: 720px) {
  header { padding: 8px 12px; }
  main { padding: 8px 12px 32px; }
  .filters { position: static; gap: 6px; }
  details.workup { scroll-margin-top: 4px; }
  .filters input[type=search] { width: 100%; }
  .card { min-width: 0; flex: 1 1 30%; padding: 2px 8px; }
  .card .big { font-size: 17px; }
  table, thead, tbody, tr, td { display: block; width: 100%; }
  table { border: 0; background: none; }
  thead { display: none; }
  tr { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 4px 8px; margin-bottom: 6px; }
  td, td.num { border: 0; padding: 1px 0; text-align: left; white-space: normal; }
  td[data-label]::before { content: attr(data-label); display: inline-block; min-width: 6.5em; padding-right: 8px;
    color: var(--muted); font-size: 12px; }
  td:empty { display: none; }
  tr.err td, tr.redundant td { background: none; } tr.err { background: #fff5f5; } tr.redundant { background: #fffaf0; }
  .timeline td.content { max-width: none; }
  .matrix-box { max-height: none; overflow: visible; border: 0; }
  table.matrix { min-width: 0; }
  table.matrix th:first-child, table.matrix td:first-child { position: static; max-width: none; border: 0; font-weight: 600; background: none; }
  table.matrix td.cell { text-align: left; }
  table.matrix td.cell.none { display: none; }
  details.workup > .body { padding: 4px 8px 12px; }
}
`;
