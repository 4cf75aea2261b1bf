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
      if (c === null || c === undefined || c === false) continue;
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
  function table(head, rows) {
    var t = el('table');
    var tr = el('tr');
    head.forEach(function (h) { tr.appendChild(el('th', null, h)); });
    t.appendChild(el('thead', null, tr));
    var tb = el('tbody');
    rows.forEach(function (r) { tb.appendChild(r); });
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

  // ---- summary
  var s = data.summary;
  var summary = document.getElementById('summary');
  add(summary, el('div', 'cards', [
    card(pct(s.passRate), 'pass rate', 'pass-rate'),
    card(String(s.passed), 'checks passed'),
    card(String(s.failed), 'checks failed'),
    card(String(s.notApplicable), 'not applicable'),
    card(String(data.workups.length), 'workups'),
    s.tests ? card(s.tests - s.testsFailed + '/' + s.tests, 'plain tests passed') : null
  ]));
  function card(big, label, id) {
    var c = el('div', 'card', [el('div', 'big', big), el('div', 'label', label)]);
    if (id) c.id = id;
    return c;
  }
  if (s.metrics.length) {
    add(summary, el('h3', null, 'Metric means'));
    add(summary, table(['spec', 'criterion', 'metric', 'mean', 'over', 'failed'], s.metrics.map(function (m) {
      return row([m.spec, m.criterion, m.metric, { num: fmt(m.mean, m.unit) }, { num: String(m.count) }, { num: String(m.failed) }]);
    })));
  }

  // ---- repeated trials: pass rates with Wilson error bars, the task x criterion matrix, flaky criteria
  if (data.trials) {
    var rep = data.trials;
    add(summary, el('h3', null, 'Repeated trials'));
    add(summary, table(['spec', 'criterion', 'trials', 'passes', 'pass rate (95% interval)', '', 'pass@k', 'pass^k', 'flaky tasks'],
      rep.criteria.map(function (c) {
        var ks = Object.keys(c.passAtK);
        return row([c.spec, c.criterion, { num: String(c.trials) }, { num: String(c.passes) },
          { num: pct(c.passRate) + (c.low === null ? '' : ' [' + pct(c.low) + ', ' + pct(c.high) + ']') },
          errorBar(c.passRate, c.low, c.high),
          ks.map(function (k) { return 'pass@' + k + ' ' + fmt(c.passAtK[k]); }).join(' · '),
          ks.map(function (k) { return 'pass^' + k + ' ' + fmt(c.passHatK[k]); }).join(' · '),
          c.flakyTasks.length ? el('span', 'badge v-flaky', c.flakyTasks.length + ' flaky') : '']);
      })));
    add(summary, el('h3', null, 'Pass fraction by task'));
    var cols = rep.criteria.map(function (c) { return c.spec + ' · ' + c.criterion; });
    var cellOf = {};
    rep.cells.forEach(function (x) { var col = x.spec + ' · ' + x.criterion; (cellOf[col] = cellOf[col] || {})[x.task] = x; });
    var matrix = table(['task'].concat(cols), rep.tasks.map(function (task) {
      var r = el('tr');
      r.appendChild(el('td', null, task));
      cols.forEach(function (col) {
        var x = (cellOf[col] || {})[task];
        var td = el('td', 'num cell', x ? x.passes + '/' + x.trials + (x.flaky ? ' ~' : '') : '');
        if (x && x.passRate !== null) {
          // Red at 0, amber at 0.5, green at 1: the hue follows the pass fraction.
          td.style.backgroundColor = 'hsl(' + Math.round(x.passRate * 120) + ', 60%, 82%)';
          td.title = pct(x.passRate) + ' of ' + x.trials + ' trials' + (x.flaky ? ', flaky' : '');
          if (x.flaky) td.classList.add('flaky');
        }
        r.appendChild(td);
      });
      return r;
    }));
    matrix.classList.add('matrix');
    add(summary, el('div', 'scroll', matrix));
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
     ['circle', { cx: x(rate), cy: 7, r: 3 }]].forEach(function (p) {
      var e = document.createElementNS(SVG, p[0]);
      Object.keys(p[1]).forEach(function (a) { e.setAttribute(a, String(p[1][a])); });
      svg.appendChild(e);
    });
    return svg;
  }

  // ---- trend charts
  if (data.trend) {
    var tsec = document.getElementById('trend');
    tsec.classList.remove('hidden');
    var charts = el('div', 'charts');
    charts.appendChild(chart('pass rate', data.trend.runs.map(function (r) { return r.passRate; }), 0, 1, pct));
    data.trend.series.forEach(function (se) {
      var unit = !!se.unit;
      charts.appendChild(chart(se.spec + ' · ' + se.criterion + ' (' + se.metric + ')', se.means,
        unit ? null : 0, unit ? null : 1, function (v) { return fmt(v, se.unit); }));
    });
    tsec.appendChild(charts);
  }
  function chart(label, values, lo, hi, show) {
    var w = 220, h = 56, pad = 4;
    var present = values.filter(function (v) { return v !== null && v !== undefined; });
    // Reduced, not applied: Math.min.apply over 100,000 values overflows the stack.
    var min = lo !== null ? lo : present.reduce(function (m, v) { return Math.min(m, v); }, Infinity);
    var max = hi !== null ? hi : present.reduce(function (m, v) { return Math.max(m, v); }, -Infinity);
    if (!(max > min)) { max = min + 1; }
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', String(w)); svg.setAttribute('height', String(h));
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.setAttribute('role', 'img');
    var base = document.createElementNS(SVG, 'line');
    base.setAttribute('x1', '0'); base.setAttribute('x2', String(w));
    base.setAttribute('y1', String(h - pad)); base.setAttribute('y2', String(h - pad));
    svg.appendChild(base);
    var pts = [];
    var step = values.length > 1 ? (w - 2 * pad) / (values.length - 1) : 0;
    values.forEach(function (v, i) {
      if (v === null || v === undefined) return;
      var x = pad + i * step, y = h - pad - ((v - min) / (max - min)) * (h - 2 * pad);
      pts.push(x.toFixed(1) + ',' + y.toFixed(1));
      var c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', x.toFixed(1)); c.setAttribute('cy', y.toFixed(1)); c.setAttribute('r', '2.5');
      var t = document.createElementNS(SVG, 'title');
      var run = data.trend.runs[i];
      t.textContent = (run ? run.time.slice(0, 16).replace('T', ' ') + (run.commit ? ' ' + run.commit.slice(0, 7) : '') + ': ' : '') + show(v);
      c.appendChild(t);
      svg.appendChild(c);
    });
    var line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', pts.join(' '));
    svg.insertBefore(line, svg.firstChild.nextSibling);
    var last = present.length ? show(present[present.length - 1]) : 'n/a';
    return el('div', 'chart', [el('div', 'label', label + ': ' + last), svg]);
  }

  // ---- filters
  var search = document.getElementById('search');
  var verdictSel = document.getElementById('verdict');
  var specSel = document.getElementById('spec');
  var specs = {};
  data.checks.forEach(function (c) { specs[c.spec] = true; c._s = [c.spec, c.workup, c.criterion, c.metric, c.statement].join(' ').toLowerCase(); });
  Object.keys(specs).sort().forEach(function (sp) { var o = el('option', null, sp); o.value = sp; specSel.appendChild(o); });
  var checksByWorkup = {};
  data.checks.forEach(function (c) { (checksByWorkup[c.workup] = checksByWorkup[c.workup] || []).push(c); });

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
      var tr = row([el('span', null, [badge(c.verdict), c.flaky ? el('span', 'badge v-flaky', 'flaky') : null]), c.spec, c.workup, c.criterion, c.metric, { num: fmt(c.value, c.unit) },
        { num: c.threshold === undefined ? '' : (c.comparator || '>=') + ' ' + fmt(c.threshold, c.unit) }, c.statement]);
      tr.dataset.verdict = c.verdict;
      return tr;
    });
    checksBox.appendChild(table(['verdict', 'spec', 'workup', 'criterion', 'metric', 'value', 'threshold', 'statement'], rows));
    if (list.length > limits.checks) checksBox.appendChild(more(list.length - limits.checks, 'checks'));

    var wl = data.workups.filter(function (w) {
      var cs = checksByWorkup[w.id] || [];
      if (!v && !sp && (!q || w.id.toLowerCase().indexOf(q) !== -1 || (w.path || '').toLowerCase().indexOf(q) !== -1)) return true;
      return cs.some(function (c) { return checkMatches(c, q, v, sp); });
    });
    workupsBox.textContent = '';
    add(workupsBox, el('div', 'count', wl.length + ' of ' + data.workups.length + ' workups'));
    wl.slice(0, limits.workups).forEach(function (w) { workupsBox.appendChild(workupItem(w)); });
    if (wl.length > limits.workups) workupsBox.appendChild(more(wl.length - limits.workups, 'workups'));
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
    var cs = checksByWorkup[w.id] || [];
    var failed = cs.filter(function (c) { return c.verdict === 'fail'; }).length;
    var d = el('details', 'workup');
    d.dataset.workup = w.id;
    var sum = el('summary', null, [
      el('span', 'badge v-' + (failed ? 'fail' : 'pass'), failed ? failed + ' failed' : 'passed'),
      el('span', 'wid', w.id),
      el('span', 'muted', cs.length + ' checks' + (w.path ? ' · ' + w.path : ''))
    ]);
    d.appendChild(sum);
    var drawn = false;
    d.addEventListener('toggle', function () {
      if (d.open) opened[w.id] = true; else delete opened[w.id];
      if (d.open && !drawn) { drawn = true; d.appendChild(workupBody(w, cs)); }
    });
    // A redraw (search, filters, "show more") keeps open the workups the reader opened.
    if (opened[w.id]) d.open = true;
    return d;
  }
  function workupBody(w, cs) {
    var b = el('div', 'body');
    if (w.loadError) add(b, el('p', 'muted', 'Could not read the workup: ' + w.loadError));
    add(b, el('h3', null, 'Checks'));
    add(b, table(['verdict', 'spec', 'criterion', 'value', 'statement'], cs.map(function (c) {
      return row([badge(c.verdict), c.spec, c.criterion, { num: fmt(c.value, c.unit) }, c.statement]);
    })));
    var rubric = cs.filter(function (c) { return c.specKind === 'rubric'; });
    if (rubric.length) {
      add(b, el('h3', null, 'Rubric scores'));
      add(b, table(['rubric', 'criterion', 'score', 'threshold', 'verdict'], rubric.map(function (c) {
        return row([c.spec, c.criterion, { num: fmt(c.value, c.unit) }, { num: c.threshold === undefined ? '' : fmt(c.threshold, c.unit) }, badge(c.verdict)]);
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
        return row([e.id, e.store, e.query, { num: String(e.results) }, e.error || ''], e.error ? 'err' : null);
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
    add(box, el('div', 'muted', t.steps.length + ' steps · ' + t.toolCalls + ' tool calls · ' + t.errors + ' errors · ' +
      t.redundant + ' redundant calls · ' + fmt(t.totalLatencyMs, 'ms') + ' · ' + fmt(t.totalTokens, 'tokens')));
    var maxLat = t.steps.reduce(function (m, st) { return Math.max(m, st.latencyMs); }, 1);
    add(box, table(['#', 'step', 'tool', 'content', 'latency', '', 'tokens', 'flags'], t.steps.map(function (st) {
      var bar = el('div', 'bar');
      bar.style.width = Math.max(1, Math.round(60 * st.latencyMs / maxLat)) + 'px';
      var flags = [];
      if (st.error) flags.push(el('span', 'badge v-fail', 'error'), ' ', st.error);
      if (st.redundant) flags.push(el('span', 'badge v-not-applicable', 'redundant'));
      var tr = row([{ num: String(st.id) }, el('span', 'badge t-' + st.type, st.type), st.tool || '', st.content, bar,
        { num: fmt(st.latencyMs, 'ms') }, { num: String(st.tokens) }, el('span', null, flags)],
        st.error ? 'err' : st.redundant ? 'redundant' : null);
      tr.cells[3].className = 'content';
      return tr;
    })));
    return box;
  }

  // ---- plain tests
  if (data.tests.length) {
    testsBox.parentElement.classList.remove('hidden');
    if (data.tests.length > 1000) add(testsBox, el('div', 'count', 'showing the first 1000 of ' + data.tests.length + ' tests, failing first'));
    add(testsBox, table(['state', 'file', 'test', 'error'], data.tests.slice(0, 1000).map(function (x) {
      return row([badge(x.state === 'passed' ? 'pass' : x.state === 'failed' ? 'fail' : 'skipped'), x.file, x.fullName, x.errors.join('\\n')]);
    })));
  }

  render();
  document.body.dataset.ready = 'true';
})();
`;
