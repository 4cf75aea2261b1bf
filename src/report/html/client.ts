/**
 * The report's one script, inlined under the page's Content-Security-Policy hash. It reads the JSON data block and
 * builds the page with DOM calls only: every string goes in through `textContent` or a text node, never through
 * `innerHTML`, so nothing an agent wrote can become markup, a handler or a link. Workups are drawn when opened and
 * long lists in pages, so a report of a thousand workups is interactive at once.
 */
export const CLIENT_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('needlework-data').textContent);
  var PAGE = 200;
  var SVG = 'http://www.w3.org/2000/svg';

  function el(tag, cls, children) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (children !== undefined && children !== null) add(e, children);
    return e;
  }
  function add(parent, children) {
    if (!Array.isArray(children)) children = [children];
    for (var i = 0; i < children.length; i++) {
      var c = children[i];
      if (c === null || c === undefined || c === false || c === '') continue;
      parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
    return parent;
  }
  function fmt(v, unit) {
    if (v === null || v === undefined) return 'n/a';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    var t = Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
    return unit ? t + ' ' + unit : t;
  }
  function pct(r) { return r === null || r === undefined ? 'n/a' : (r * 100).toFixed(1) + '%'; }
  function badge(verdict) { return el('span', 'badge v-' + verdict, verdict); }
  // Identifiers (specs, workups, criteria, paths, files, tools) may break after / . _ : · - and nowhere else, so a
  // narrow cell wraps "fixtures/workups/example" at its slashes, never inside "example".
  function ident(text) {
    var span = el('span', 'ident');
    var parts = String(text).split(/([/._:·-]+)/);
    for (var i = 0; i < parts.length; i++) {
      if (!parts[i]) continue;
      span.appendChild(document.createTextNode(parts[i]));
      if (i % 2 === 1 && i < parts.length - 1) span.appendChild(document.createElement('wbr'));
    }
    return span;
  }
  // Every cell carries its column's name, which a narrow screen shows beside the value when rows stack into cards.
  function table(head, rows, cls) {
    var t = el('table', cls || null);
    var tr = el('tr');
    // A heading is a string, or { node, label, cls }: what the header cell shows and the name a stacked cell gets.
    head.forEach(function (h) { tr.appendChild(typeof h === 'string' ? el('th', null, h) : el('th', h.cls, h.node)); });
    t.appendChild(el('thead', null, tr));
    var tb = el('tbody');
    rows.forEach(function (r) {
      for (var i = 0; i < r.cells.length && i < head.length; i++) {
        var h = head[i];
        var name = typeof h === 'string' ? h : h.label;
        if (name) r.cells[i].dataset.label = name;
      }
      tb.appendChild(r);
    });
    t.appendChild(tb);
    return t;
  }
  function row(cells, cls) {
    var tr = el('tr', cls || null);
    cells.forEach(function (c) {
      if (c && !(c instanceof Node) && typeof c === 'object') tr.appendChild(el('td', 'num', c.num)); else tr.appendChild(el('td', null, c));
    });
    return tr;
  }
  // A folding section of summaries: shown (it starts hidden, for a report with nothing to put in it) and open.
  function section(id) {
    var d = document.getElementById(id);
    d.classList.remove('hidden');
    d.open = true;
    return d;
  }

  // ---- summary: one row of counts above the failures
  var s = data.summary;
  add(document.getElementById('summary'), [
    card(pct(s.passRate), 'pass rate', 'pass-rate'),
    card(String(s.failed), 'checks failed', null, s.failed ? 'fail' : null),
    card(String(s.passed), 'checks passed'),
    card(String(s.notApplicable), 'not applicable'),
    card(String(data.workups.length), 'workups'),
    s.tests ? card(s.tests - s.testsFailed + '/' + s.tests, 'plain tests passed', null, s.testsFailed ? 'fail' : null) : null
  ]);
  function card(big, label, id, tone) {
    var c = el('div', 'card' + (tone ? ' c-' + tone : ''), [el('div', 'big', big), el('div', 'label', label)]);
    if (id) c.id = id;
    return c;
  }
  // ---- the gate against the baseline: one line when nothing changed; else a compact table, regressed first, whose
  // first rows stay on the first screen above the checks (the rest fold away)
  if (data.gate) {
    var g = data.gate;
    var gbox = document.getElementById('gate');
    section('gate-section');
    add(gbox, [el('p', 'gate-head ' + (g.regressed ? 'v-fail' : 'v-pass'), g.headline), el('p', 'meta', 'compared with ' + g.baseline)]);
    if (g.rows.length) {
      // What changed (regressed first) shows, up to three rows; still failing, added and removed cases fold away.
      var changed = g.rows.filter(function (r) { return r.status === 'regressed' || r.status === 'fixed' || r.status === 'flaky' || r.status === 'moved'; });
      var shown = changed.slice(0, 3);
      var folded = g.rows.filter(function (r) { return shown.indexOf(r) < 0; });
      var gateTable = function (rows) {
        return table(['', 'case', 'criterion', 'before', 'after', 'why'], rows.map(function (r) {
          var tone = r.status === 'regressed' ? 'fail' : r.status === 'fixed' ? 'pass' : r.status === 'flaky' ? 'flaky' : 'not-applicable';
          return row([el('span', 'badge v-' + tone, r.status.replace('-', ' ')), r.case, r.criterion, r.before, r.after,
            [r.basis, r.reason].filter(Boolean).join(': ')]);
        }));
      };
      if (shown.length) gbox.appendChild(gateTable(shown));
      if (folded.length) {
        gbox.appendChild(el('details', 'fold', [el('summary', null, (shown.length ? folded.length + ' more' : 'every case x criterion (' + folded.length + ')')), gateTable(folded)]));
      }
      gbox.appendChild(el('p', 'meta', g.counts));
    }
    g.notes.forEach(function (n) { gbox.appendChild(el('p', 'meta', 'Note: ' + n)); });
  }
  if (s.metrics.length) {
    var means = section('metrics');
    add(means, table(['spec', 'criterion', 'metric', 'mean', 'over', 'failed'], s.metrics.map(function (m) {
      return row([ident(m.spec), ident(m.criterion), ident(m.metric), { num: fmt(m.mean, m.unit) }, { num: String(m.count) }, { num: String(m.failed) }]);
    })));
  }

  // ---- repeated trials: pass rates with Wilson error bars, the task x criterion matrix, flaky criteria
  if (data.trials) {
    var rep = data.trials;
    var trials = section('trials');
    add(trials, table(['spec', 'criterion', 'trials', 'passes', 'pass rate (95% interval)', '', 'pass@k', 'pass^k', 'flaky tasks'],
      rep.criteria.map(function (c) {
        var ks = Object.keys(c.passAtK);
        return row([ident(c.spec), ident(c.criterion), { num: String(c.trials) }, { num: String(c.passes) },
          { num: pct(c.passRate) + (c.low === null ? '' : ' [' + pct(c.low) + ', ' + pct(c.high) + ']') },
          errorBar(c.passRate, c.low, c.high),
          ks.map(function (k) { return 'pass@' + k + ' ' + fmt(c.passAtK[k]); }).join(' · '),
          ks.map(function (k) { return 'pass^' + k + ' ' + fmt(c.passHatK[k]); }).join(' · '),
          c.flakyTasks.length ? el('span', 'badge v-flaky', c.flakyTasks.length + ' flaky') : '']);
      })));
    add(trials, el('h3', null, 'Pass fraction by task'));
    var cols = rep.criteria.map(function (c) { return c.spec + ' · ' + c.criterion; });
    var cellOf = {};
    rep.cells.forEach(function (x) { var col = x.spec + ' · ' + x.criterion; (cellOf[col] = cellOf[col] || {})[x.task] = x; });
    // Each column is headed by its criterion; the spec heads the first column of its group, which a rule sets apart.
    var heads = rep.criteria.map(function (c, i) {
      var first = i === 0 || rep.criteria[i - 1].spec !== c.spec;
      var node = el('span', null, [first ? el('span', 'group', ident(c.spec)) : null, ident(c.criterion)]);
      node.title = cols[i];
      return { node: node, label: cols[i], cls: first && i > 0 ? 'first' : null };
    });
    var matrix = table(['task'].concat(heads), rep.tasks.map(function (task) {
      var r = el('tr');
      r.appendChild(el('td', null, ident(task)));
      cols.forEach(function (col, i) {
        var x = (cellOf[col] || {})[task];
        var td = el('td', 'num cell' + (x ? '' : ' none') + (heads[i].cls ? ' first' : ''), x ? x.passes + '/' + x.trials + (x.flaky ? ' ~' : '') : '');
        if (x && x.passRate !== null) {
          // Red at 0, amber at 0.5, green at 1: the hue follows the pass fraction.
          td.style.backgroundColor = 'hsl(' + Math.round(x.passRate * 120) + ', 60%, 82%)';
          td.title = pct(x.passRate) + ' of ' + x.trials + ' trials' + (x.flaky ? ', flaky' : '');
          if (x.flaky) td.classList.add('flaky');
        }
        r.appendChild(td);
      });
      return r;
    }), 'matrix');
    // A matrix wider than the page scrolls in a box no taller than the screen, so its scroll bar is in view, with its
    // header row and task column held in place and a line saying how much lies to the side.
    var box = el('div', 'matrix-box', matrix);
    var hint = el('div', 'scroll-hint hidden');
    add(trials, [hint, box]);
    var sayWidth = function () {
      var hidden = box.scrollWidth - box.clientWidth;
      hint.textContent = hidden > 1 ? rep.tasks.length + ' tasks × ' + cols.length + ' criteria: scroll the table sideways for the rest ↔' : '';
      hint.classList.toggle('hidden', hidden <= 1);
    };
    sayWidth();
    window.addEventListener('resize', sayWidth);
  }
  function errorBar(rate, low, high) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', '120');
    svg.setAttribute('height', '14');
    svg.setAttribute('class', 'errorbar');
    if (rate === null) return svg;
    var x = function (v) { return (4 + v * 112).toFixed(1); };
    [['line', { x1: x(0), x2: x(1), y1: 7, y2: 7, 'class': 'axis' }],
     ['line', { x1: x(low), x2: x(high), y1: 7, y2: 7, 'class': 'range' }],
     ['line', { x1: x(low), x2: x(low), y1: 3, y2: 11, 'class': 'range' }],
     ['line', { x1: x(high), x2: x(high), y1: 3, y2: 11, 'class': 'range' }],
     ['circle', { cx: x(rate), cy: 7, r: 3 }]].forEach(function (p) { svgEl(svg, p[0], p[1]); });
    return svg;
  }
  function svgEl(parent, tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (a) { e.setAttribute(a, String(attrs[a])); });
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  // ---- trend charts: one per metric, each on a value axis fitted to it, runs along the bottom
  if (data.trend) {
    var tsec = section('trend');
    var runs = data.trend.runs;
    var charts = el('div', 'charts');
    charts.appendChild(chart('pass rate', null, runs.map(function (r) { return r.passRate; }), data.trend.passRateAxis,
      pct, function (v) { return Math.round(v * 100) + '%'; }));
    data.trend.series.forEach(function (se) {
      charts.appendChild(chart(se.spec + ' · ' + se.criterion, se.metric + (se.unit ? ', ' + se.unit : ''), se.means, se.axis,
        function (v) { return fmt(v, se.unit); }, tick));
    });
    add(tsec, el('p', 'muted', runs.length + ' runs, oldest on the left; ' +
      (runs.some(function (r) { return r.commit; }) ? 'each named by its commit (its time where it has none)' : 'each named by its time (UTC)') + '.'));
    tsec.appendChild(charts);
  }
  function tick(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return fmt(v / 1e6) + 'M';
    if (a >= 1e4) return fmt(v / 1e3) + 'k';
    return fmt(v);
  }
  function chart(title, sub, values, axis, show, tickText) {
    var W = 320, H = 176, L = 44, R = 14, T = 10, B = 40;
    var pw = W - L - R, ph = H - T - B, n = values.length;
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('width', String(W));
    svg.setAttribute('height', String(H));
    svg.setAttribute('role', 'img');
    var px = function (i) { return L + (n > 1 ? i * pw / (n - 1) : pw / 2); };
    var py = function (v) { return T + ph - (v - axis.min) / (axis.max - axis.min) * ph; };
    svgEl(svg, 'rect', { x: L, y: T, width: pw, height: ph, 'class': 'plot' });
    var yAxis = svgEl(svg, 'g', { 'class': 'y-axis' });
    axis.ticks.forEach(function (t) {
      var y = py(t).toFixed(1);
      svgEl(yAxis, 'line', { x1: L, x2: L + pw, y1: y, y2: y, 'class': 'grid' });
      svgEl(yAxis, 'text', { x: L - 5, y: (py(t) + 3.5).toFixed(1), 'text-anchor': 'end' }, tickText(t));
    });
    var xAxis = svgEl(svg, 'g', { 'class': 'x-axis' });
    var shown = n <= 4 ? values.map(function (_, i) { return i; }) : [0, Math.round((n - 1) / 3), Math.round(2 * (n - 1) / 3), n - 1];
    shown.forEach(function (i) {
      var x = px(i);
      svgEl(xAxis, 'line', { x1: x.toFixed(1), x2: x.toFixed(1), y1: T + ph, y2: T + ph + 4, 'class': 'tick' });
      var anchor = n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle';
      var lx = anchor === 'start' ? Math.max(2, x - 8) : anchor === 'end' ? Math.min(W - 2, x + 8) : x;
      svgEl(xAxis, 'text', { x: lx.toFixed(1), y: T + ph + 15, 'text-anchor': anchor }, runs[i] ? runs[i].label : '');
    });
    svgEl(xAxis, 'text', { x: L + pw / 2, y: H - 4, 'text-anchor': 'middle', 'class': 'caption' }, 'run');
    svgEl(svg, 'line', { x1: L, x2: L, y1: T, y2: T + ph, 'class': 'axis' });
    svgEl(svg, 'line', { x1: L, x2: L + pw, y1: T + ph, y2: T + ph, 'class': 'axis' });
    // A run where the metric was not measured leaves a gap in the line, not a point at zero.
    var series = svgEl(svg, 'g', { 'class': 'series' });
    var segment = [];
    var flush = function () { if (segment.length > 1) svgEl(series, 'polyline', { points: segment.join(' ') }); segment = []; };
    var last = null;
    values.forEach(function (v, i) {
      if (v === null || v === undefined) { flush(); return; }
      last = v;
      var x = px(i).toFixed(1), y = py(v).toFixed(1);
      segment.push(x + ',' + y);
      var c = svgEl(series, 'circle', { cx: x, cy: y, r: n > 40 ? 2 : 3 });
      var run = runs[i];
      svgEl(c, 'title', {}, (run ? run.time.slice(0, 16).replace('T', ' ') + (run.commit ? ' ' + run.commit.slice(0, 7) : '') + ': ' : '') + show(v));
    });
    flush();
    var head = el('div', 'label', [el('span', 'title', ident(title)), sub ? el('span', 'muted', [' (', ident(sub), ')']) : null,
      el('span', 'latest', ' latest ' + (last === null ? 'n/a' : show(last)))]);
    return el('div', 'chart', [head, svg]);
  }

  // ---- filters
  var search = document.getElementById('search');
  var verdictSel = document.getElementById('verdict');
  var specSel = document.getElementById('spec');
  var specs = {};
  var workupByKey = {}, idCount = {};
  data.workups.forEach(function (w) { workupByKey[w.key] = w; idCount[w.id] = (idCount[w.id] || 0) + 1; });
  // Where a workup is: its folder, else the test file of its checks. Shown wherever its id alone is ambiguous.
  function place(w) { return w ? w.path || w.file || '' : ''; }
  data.checks.forEach(function (c) { specs[c.spec] = true; c._s = [c.spec, c.place || '', c.workup, place(workupByKey[c.workupKey]), c.criterion, c.metric, c.statement].join(' ').toLowerCase(); });
  Object.keys(specs).sort().forEach(function (sp) { var o = el('option', null, sp); o.value = sp; specSel.appendChild(o); });
  var checksByWorkup = {};
  data.checks.forEach(function (c) { (checksByWorkup[c.workupKey] = checksByWorkup[c.workupKey] || []).push(c); });
  // A check's workup is a button that opens the workup below and scrolls to it: from a failure to why it failed.
  function workupName(c) {
    var w = workupByKey[c.workupKey];
    var b = el('button', 'link', idCount[c.workup] > 1 && w ? [ident(c.workup), ' ', el('span', 'muted', ['(', ident(place(w)), ')'])] : ident(c.workup));
    b.type = 'button';
    b.title = 'open this workup';
    b.addEventListener('click', function () { showWorkup(c.workupKey); });
    return b;
  }
  var shown = Object.create(null), wanted = Object.create(null);
  function showWorkup(key) {
    if (!shown[key]) { wanted[key] = true; render(); }
    var d = shown[key];
    if (!d) return;
    d.open = true;
    d.scrollIntoView({ block: 'start' });
  }

  // The spec, and under it where the check is written: its assertion, and its case when that starts elsewhere.
  function specCell(c) {
    var where = c.place || c.casePlace;
    if (!where) return ident(c.spec);
    var text = c.place && c.casePlace && c.casePlace.split(':').slice(0, -2).join(':') === c.place.split(':').slice(0, -2).join(':')
      ? c.place + ' (case at ' + c.casePlace.split(':').slice(-2).join(':') + ')'
      : where;
    return el('span', null, [ident(c.spec), el('div', 'place', text)]);
  }

  function checkMatches(c, q, v, sp) {
    if (v && c.verdict !== v) return false;
    if (sp && c.spec !== sp) return false;
    return !q || c._s.indexOf(q) !== -1;
  }

  var checksBox = document.getElementById('checks');
  var workupsBox = document.getElementById('workups');
  var testsBox = document.getElementById('tests');
  var limits = { checks: PAGE, workups: PAGE };

  function render() {
    // Whatever triggered this render reads the current search text, so a pending debounced one would only redraw
    // again later, closing a workup the reader has opened since.
    clearTimeout(timer);
    var q = search.value.trim().toLowerCase(), v = verdictSel.value, sp = specSel.value;
    var list = data.checks.filter(function (c) { return checkMatches(c, q, v, sp); });
    checksBox.textContent = '';
    add(checksBox, el('div', 'count', list.length + ' of ' + data.checks.length + ' checks'));
    var rows = list.slice(0, limits.checks).map(function (c) {
      var tr = row([el('span', null, [badge(c.verdict), c.flaky ? el('span', 'badge v-flaky', 'flaky') : null]), specCell(c), workupName(c), ident(c.criterion), ident(c.metric), { num: fmt(c.value, c.unit) },
        { num: c.threshold === undefined ? '' : (c.comparator || '>=') + ' ' + fmt(c.threshold, c.unit) }, c.statement]);
      tr.dataset.verdict = c.verdict;
      return tr;
    });
    checksBox.appendChild(table(['verdict', 'spec', 'workup', 'criterion', 'metric', 'value', 'threshold', 'statement'], rows, 'checks'));
    if (list.length > limits.checks) checksBox.appendChild(more(list.length - limits.checks, 'checks'));

    var wl = data.workups.filter(function (w) {
      var cs = checksByWorkup[w.key] || [];
      if (!v && !sp && (!q || w.id.toLowerCase().indexOf(q) !== -1 || place(w).toLowerCase().indexOf(q) !== -1)) return true;
      return cs.some(function (c) { return checkMatches(c, q, v, sp); });
    });
    workupsBox.textContent = '';
    add(workupsBox, el('div', 'count', wl.length + ' of ' + data.workups.length + ' workups'));
    // A workup asked for from its check is drawn first even when the filters or the page limit leave it out.
    shown = Object.create(null);
    var asked = data.workups.filter(function (w) { return wanted[w.key] && wl.slice(0, limits.workups).indexOf(w) === -1; });
    asked.concat(wl.slice(0, limits.workups)).forEach(function (w) { var d = workupItem(w); shown[w.key] = d; workupsBox.appendChild(d); });
    if (wl.length > limits.workups) workupsBox.appendChild(more(wl.length - limits.workups, 'workups'));
    wanted = Object.create(null);
  }
  function more(n, key) {
    var b = el('button', 'more', 'Show ' + Math.min(n, PAGE) + ' more (' + n + ' hidden)');
    b.type = 'button';
    b.addEventListener('click', function () { limits[key] += PAGE; render(); });
    return b;
  }
  var timer = null;
  search.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(function () { limits.checks = limits.workups = PAGE; render(); }, 80); });
  verdictSel.addEventListener('change', function () { limits.checks = limits.workups = PAGE; render(); });
  specSel.addEventListener('change', function () { limits.checks = limits.workups = PAGE; render(); });

  // ---- workups
  var opened = Object.create(null);
  function workupItem(w) {
    var cs = checksByWorkup[w.key] || [];
    var failed = cs.filter(function (c) { return c.verdict === 'fail'; }).length;
    var d = el('details', 'workup');
    d.dataset.workup = w.id;
    d.dataset.place = place(w);
    var sum = el('summary', null, [
      el('span', 'badge v-' + (failed ? 'fail' : 'pass'), failed ? failed + ' failed' : 'passed'),
      el('span', 'wid', ident(w.id)),
      el('span', 'muted', [cs.length + ' checks', place(w) ? ' · ' : '', place(w) ? ident(place(w)) : null])
    ]);
    d.appendChild(sum);
    var drawn = false;
    d.addEventListener('toggle', function () {
      if (d.open) opened[w.key] = true; else delete opened[w.key];
      if (d.open && !drawn) { drawn = true; d.appendChild(workupBody(w, cs)); }
    });
    // A redraw (search, filters, "show more") keeps open the workups the reader opened.
    if (opened[w.key]) d.open = true;
    return d;
  }
  function workupBody(w, cs) {
    var b = el('div', 'body');
    if (w.loadError) add(b, el('p', 'muted', 'Could not read the workup: ' + w.loadError));
    add(b, el('h3', null, 'Checks'));
    add(b, table(['verdict', 'spec', 'criterion', 'value', 'statement'], cs.map(function (c) {
      return row([badge(c.verdict), ident(c.spec), ident(c.criterion), { num: fmt(c.value, c.unit) }, c.statement]);
    })));
    var rubric = cs.filter(function (c) { return c.specKind === 'rubric'; });
    if (rubric.length) {
      add(b, el('h3', null, 'Rubric scores'));
      add(b, table(['rubric', 'criterion', 'score', 'threshold', 'verdict'], rubric.map(function (c) {
        return row([ident(c.spec), ident(c.criterion), { num: fmt(c.value, c.unit) }, { num: c.threshold === undefined ? '' : fmt(c.threshold, c.unit) }, badge(c.verdict)]);
      })));
    }
    if (w.paths.length) {
      add(b, el('h3', null, 'Required path against traversed'));
      w.paths.forEach(function (p) {
        add(b, el('div', 'muted', p.spec + ' · ' + p.criterion));
        add(b, pathRow('required', p.required, null));
        add(b, pathRow('traversed', p.traversed, p.required));
      });
    }
    if (w.note) b.appendChild(noteView(w.note));
    if (w.ledger.length) {
      add(b, el('h3', null, 'Ledger'));
      add(b, table(['id', 'store', 'query', 'results', 'error'], w.ledger.map(function (e) {
        return row([ident(e.id), ident(e.store), e.query, { num: String(e.results) }, e.error || ''], e.error ? 'err' : null);
      })));
    }
    if (w.trajectory) b.appendChild(timeline(w.trajectory));
    return b;
  }
  function pathRow(label, hops, against) {
    var r = el('div', 'path', el('span', 'muted', label + ':'));
    if (!hops.length) add(r, el('span', 'muted', '(none)'));
    hops.forEach(function (h, i) {
      if (i) add(r, '→');
      add(r, el('span', 'hop' + (against ? (against[i] === h ? ' ok' : ' miss') : ''), h));
    });
    return r;
  }
  function noteView(note) {
    var box = el('div');
    add(box, el('h3', null, 'Note'));
    var legend = el('div', 'legend');
    [['c-resolved', 'resolved', note.counts.resolved], ['c-failed-query', 'cites a failed query', note.counts['failed-query']],
     ['c-dangling', 'dangling', note.counts.dangling], ['s-uncited', 'uncited claim', note.counts.uncited],
     ['s-unsupported', 'unsupported claim', note.counts.unsupported]].forEach(function (l) {
      add(legend, el('span', (l[0].charAt(0) === 'c' ? 'key cite ' : 'key ') + l[0], l[1] + ' ' + l[2]));
    });
    add(box, legend);
    var n = el('div', 'note');
    note.sections.forEach(function (sec) {
      if (sec.title) add(n, el('h4', null, [sec.title, sec.claims ? null : el('span', 'muted', ' (makes no claims)')]));
      var list = null;
      sec.segments.forEach(function (seg) {
        var holder;
        if (seg.kind === 'bullet') { if (!list) { list = el('ul'); n.appendChild(list); } holder = el('li'); list.appendChild(holder); }
        else { list = null; holder = el('p'); n.appendChild(holder); }
        seg.sentences.forEach(function (st, i) {
          if (i) add(holder, ' ');
          var span = el('span', st.status ? 's-' + st.status : null, st.text);
          if (st.status) span.title = st.status === 'uncited' ? 'no citation covers this claim' : 'the cited source does not support this claim';
          holder.appendChild(span);
          st.citations.forEach(function (c) {
            var chip = el('span', 'cite c-' + c.status, c.id);
            chip.title = c.status;
            holder.appendChild(chip);
          });
        });
      });
    });
    box.appendChild(n);
    return box;
  }
  function timeline(t) {
    var box = el('div', 'timeline');
    add(box, el('h3', null, 'Trajectory'));
    // The totals are the sums of the rows below; the trajectory's own totals follow where they differ.
    var rec = t.recorded || {};
    var own = [rec.latencyMs === undefined ? null : fmt(rec.latencyMs, 'ms'), rec.tokens === undefined ? null : fmt(rec.tokens, 'tokens')]
      .filter(function (x) { return x; });
    add(box, el('div', 'muted totals', t.steps.length + ' steps · ' + t.toolCalls + ' tool calls · ' + t.errors + ' errors · ' +
      t.redundant + ' redundant calls · ' + fmt(t.totalLatencyMs, 'ms') + ' · ' + fmt(t.totalTokens, 'tokens') +
      (own.length ? ' (the trajectory records ' + own.join(' and ') + ' in all)' : '')));
    var maxLat = t.steps.reduce(function (m, st) { return Math.max(m, st.latencyMs); }, 1);
    add(box, table(['#', 'step', 'tool', 'content', '', 'latency', 'tokens', 'flags'], t.steps.map(function (st) {
      var bar = el('div', 'bar');
      bar.style.width = Math.max(1, Math.round(60 * st.latencyMs / maxLat)) + 'px';
      var flags = [];
      if (st.error) flags.push(el('span', 'badge v-fail', 'error'), ' ', st.error);
      if (st.redundant) flags.push(el('span', 'badge v-not-applicable', 'redundant'));
      var tr = row([{ num: String(st.id) }, el('span', 'badge t-' + st.type, st.type), st.tool ? ident(st.tool) : '', st.content, bar,
        { num: fmt(st.latencyMs, 'ms') }, { num: String(st.tokens) }, flags.length ? el('span', null, flags) : ''],
        st.error ? 'err' : st.redundant ? 'redundant' : null);
      tr.cells[3].className = 'content';
      return tr;
    })));
    return box;
  }

  // ---- plain tests
  if (data.tests.length) {
    testsBox.parentElement.classList.remove('hidden');
    // A failing plain test is a failure too: it then follows the checks instead of ending the page.
    if (s.testsFailed) document.getElementById('checks-section').after(testsBox.parentElement);
    if (data.tests.length > 1000) add(testsBox, el('div', 'count', 'showing the first 1000 of ' + data.tests.length + ' tests, failing first'));
    add(testsBox, table(['state', 'file', 'test', 'error'], data.tests.slice(0, 1000).map(function (x) {
      return row([badge(x.state === 'passed' ? 'pass' : x.state === 'failed' ? 'fail' : 'skipped'), ident(x.file), x.fullName, x.errors.join('\\n')]);
    })));
  }

  render();
  document.body.dataset.ready = 'true';
})();
`;
