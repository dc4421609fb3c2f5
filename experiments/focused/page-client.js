/*
 * Browser code of the results page (inlined by experiments/page.ts). Reads the data inlined as
 * JSON, draws the curves with vega-embed (SVG), keeps a legend of strategies that can be hidden,
 * switches between means with CIs and every run, sorts the summary table, and replays the first
 * run's crawl on canvases. Sets window.pageReady when everything is drawn (the browser test
 * waits for it) and data-fetched on each replay panel (the pages drawn for its strategy).
 */
/* global vegaEmbed */
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var hidden = {};
  var view = 'mean';

  function shown() {
    return D.strategies.filter(function (s) { return !hidden[s]; });
  }

  function spec(m) {
    var keep = shown();
    var colour = { field: 'strategy', type: 'nominal', title: null, scale: { domain: D.strategies, range: D.strategies.map(function (s) { return D.colours[s]; }) }, legend: null };
    var x = { field: 'pages', type: 'quantitative', title: 'pages crawled' };
    var base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width: 720, height: 260, title: m.title };
    if (view === 'mean') {
      var rows = D.aggregates.filter(function (r) { return keep.indexOf(r.strategy) >= 0 && r[m.metric] !== null && r[m.metric] !== undefined; });
      return Object.assign(base, {
        data: { values: rows },
        // no bands over fewer than 3 units (the page says why under the charts)
        layer: (D.bands ? [{ mark: { type: 'area', opacity: 0.15 }, encoding: { x: x, y: { field: m.metric + '_lo', type: 'quantitative', title: m.title, scale: { domain: [0, 1] } }, y2: { field: m.metric + '_hi' }, color: colour } }] : []).concat([
          {
            mark: { type: 'line', point: { size: 14 }, tooltip: true },
            encoding: {
              x: x, y: { field: m.metric, type: 'quantitative', title: m.title, scale: { domain: [0, 1] } }, color: colour,
              tooltip: [{ field: 'strategy' }, { field: 'pages' }, { field: m.metric, format: '.3f' }, { field: m.metric + '_lo', title: 'CI low', format: '.3f' }, { field: m.metric + '_hi', title: 'CI high', format: '.3f' }],
            },
          },
        ]),
      });
    }
    var runs = D.curves.filter(function (r) { return keep.indexOf(r.strategy) >= 0; });
    return Object.assign(base, {
      data: { values: runs },
      mark: { type: 'line', opacity: 0.55, strokeWidth: 1, point: { size: 8 }, tooltip: true },
      encoding: {
        x: x, y: { field: m.metric, type: 'quantitative', title: m.title, scale: { domain: [0, 1] } }, color: colour, detail: { field: 'run' },
        tooltip: [{ field: 'strategy' }, { field: 'run' }, { field: 'pages' }, { field: m.metric, format: '.3f' }],
      },
    });
  }

  function drawCharts() {
    return Promise.all(D.metrics.map(function (m) {
      return vegaEmbed('#chart-' + m.metric, spec(m), { renderer: 'svg', actions: false });
    }));
  }

  function legend() {
    var box = document.getElementById('legend');
    D.strategies.forEach(function (s) {
      var b = document.createElement('button');
      b.type = 'button';
      b.dataset.strategy = s;
      b.title = 'show or hide ' + s;
      b.innerHTML = '<span class="swatch" style="background:' + D.colours[s] + '"></span>' + s;
      b.addEventListener('click', function () {
        hidden[s] = !hidden[s];
        b.classList.toggle('off', !!hidden[s]);
        window.pageReady = false;
        drawCharts().then(function () { window.pageReady = true; });
      });
      box.appendChild(b);
    });
    document.querySelectorAll('input[name=view]').forEach(function (r) {
      r.addEventListener('change', function () {
        view = r.value;
        window.pageReady = false;
        drawCharts().then(function () { window.pageReady = true; });
      });
    });
  }

  function sortable(table) {
    var ths = table.querySelectorAll('th');
    ths.forEach(function (th, i) {
      th.addEventListener('click', function () {
        var asc = !th.classList.contains('asc');
        ths.forEach(function (t) { t.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[i].textContent, y = b.cells[i].textContent;
          var nx = parseFloat(x), ny = parseFloat(y);
          var c = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  var GROUP_COLOURS = ['#8fb3d9', '#e0a96d', '#9ccf9c', '#d99a9a', '#b7a3d6', '#c9b28f', '#e3a8cf', '#b0b0b0', '#c8c86f', '#7fc9c9'];

  function replay() {
    var R = D.replay;
    if (!R) return;
    var size = 280, scale = (size - 8) / 1000;
    var names = D.strategies.filter(function (s) { return R.orders[s]; });
    var most = Math.max.apply(null, names.map(function (s) { return R.orders[s].length; }));
    var relevant = {};
    R.relevant.forEach(function (i) { relevant[i] = true; });
    var panels = names.map(function (s) {
      var div = document.createElement('div');
      div.className = 'panel';
      div.dataset.strategy = s;
      var canvas = document.createElement('canvas');
      canvas.width = size; canvas.height = size;
      var cap = document.createElement('div');
      cap.className = 'caption';
      div.appendChild(canvas); div.appendChild(cap);
      document.getElementById('replay').appendChild(div);
      return { s: s, div: div, ctx: canvas.getContext('2d'), cap: cap };
    });
    function px(i) { return 4 + R.xy[2 * i] * scale; }
    function py(i) { return 4 + R.xy[2 * i + 1] * scale; }
    function draw(n) {
      panels.forEach(function (p) {
        var c = p.ctx;
        c.clearRect(0, 0, size, size);
        c.globalAlpha = 0.35;
        for (var i = 0; i < R.n; i++) {
          c.fillStyle = GROUP_COLOURS[R.groups[i] % GROUP_COLOURS.length];
          c.fillRect(px(i) - 1, py(i) - 1, 2, 2);
        }
        c.globalAlpha = 0.6;
        c.strokeStyle = '#333';
        c.lineWidth = 0.6;
        R.relevant.forEach(function (i) { c.beginPath(); c.arc(px(i), py(i), 2.2, 0, 6.2832); c.stroke(); });
        c.globalAlpha = 1;
        var order = R.orders[p.s], k = Math.min(n, order.length), found = 0;
        c.fillStyle = D.colours[p.s];
        for (var j = 0; j < k; j++) {
          var v = order[j];
          var r = relevant[v] ? 3 : 1.6;
          if (relevant[v]) found++;
          c.fillRect(px(v) - r, py(v) - r, 2 * r, 2 * r);
        }
        p.div.dataset.fetched = String(k);
        p.cap.textContent = p.s + ': ' + k + ' pages, ' + found + ' of ' + R.relevant.length + ' relevant';
      });
      document.getElementById('slider-label').textContent = n + ' pages crawled';
    }
    var slider = document.getElementById('slider');
    slider.max = String(most);
    slider.value = String(most);
    slider.addEventListener('input', function () { draw(Number(slider.value)); });
    var timer = null;
    document.getElementById('play').addEventListener('click', function () {
      if (timer) { clearInterval(timer); timer = null; return; }
      var n = 0;
      timer = setInterval(function () {
        n = Math.min(most, n + Math.max(1, Math.round(most / 150)));
        slider.value = String(n);
        draw(n);
        if (n >= most) { clearInterval(timer); timer = null; }
      }, 40);
    });
    draw(most);
  }

  legend();
  document.querySelectorAll('table.sortable').forEach(sortable);
  replay();
  drawCharts().then(function () { window.pageReady = true; }, function (e) { console.error(e); });
})();
