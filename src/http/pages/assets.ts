/**
 * What the pages load besides themselves, all from this server: the stylesheet, the one small
 * script (the chart, and a file read into the collection form), and uPlot (MIT, the npm package
 * `uplot`, a dependency), read from the installed package on first use. No CDN: a page asks no
 * other host for anything but a product's catalog image.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fafafa}
a{color:#0b57a4}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f0a500;outline-offset:1px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center;padding:10px 16px;background:#15304f;color:#fff}
header a{color:#fff}
.search{display:flex;flex-wrap:wrap;gap:6px;align-items:center;flex:1 1 300px;min-width:0}
.search label{position:absolute;left:-999px}
.search input{flex:1 1 160px;min-width:0;padding:6px 8px;font:inherit;border:1px solid #889;border-radius:4px}
button{font:inherit;padding:6px 12px;border:1px solid #0b57a4;background:#0b57a4;color:#fff;border-radius:4px;cursor:pointer}
nav{display:flex;flex-wrap:wrap;align-items:center;gap:8px}
nav ul{display:flex;flex-wrap:wrap;gap:4px 16px;margin:0;padding:0;list-style:none}
.sign-out button{background:transparent;border-color:#fff;padding:2px 8px}
main{max-width:1100px;margin:0 auto;padding:8px 16px 24px}
h1{font-size:1.6rem;margin:12px 0 4px;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:24px 0 8px}
.as-of{color:#555;margin:0}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff;margin:4px 0 12px}
caption{text-align:left;font-weight:600;padding:4px 0}
th,td{padding:6px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td small,dd small,.ungraded small{display:block;color:#555;font-size:.8rem}
.matrix td{min-width:118px}
.price{font-weight:600;font-variant-numeric:tabular-nums}
.estimated{font-style:italic;color:#6a4b00}
.up{color:#1b6d2a}.down{color:#a52019}
.left-out{color:#777}
.identity{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.identity img{max-width:160px;height:auto;border-radius:6px;background:#eee}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.hits li{margin:6px 0}.hits small{display:block;color:#555;overflow-wrap:anywhere}
.chart-form,.value-form,.sign-in,.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.value-form{flex-direction:column;align-items:stretch}
.value-form textarea{width:100%;font:14px ui-monospace,monospace}
select,input,textarea{font:inherit;max-width:100%}
.chart{margin:8px 0}.chart-box{width:100%;min-height:40px}
.error,.problems{background:#fdecea;border-left:4px solid #a52019;padding:8px 12px}
.note{background:#fff6d6;border-left:4px solid #f0a500;padding:6px 12px}
footer{max-width:1100px;margin:0 auto;padding:8px 16px 32px;color:#555;font-size:.9rem;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
`;

/** Draws each [data-chart] with uPlot from its JSON script; reads a chosen file into its textarea. */
const SCRIPT = `'use strict';
(function () {
  var usd = function (c) { return c == null ? '' : '$' + (c / 100).toLocaleString('en-US', { maximumFractionDigits: 0 }); };
  var points = function (v) { return v == null ? '' : v.toLocaleString('en-US', { maximumFractionDigits: 2 }); };
  function draw(box) {
    var data = JSON.parse(document.getElementById(box.dataset.chart).textContent);
    var band = data.low.length > 0;
    var fmt = data.unit === 'points' ? points : usd;
    var series = [{}, { label: data.label, stroke: '#0b57a4', width: 2, value: function (u, v) { return fmt(v); } }];
    var columns = [data.t, data.price];
    if (band) {
      series.push({ label: '80 % high', stroke: 'rgba(11,87,164,0.25)', value: function (u, v) { return fmt(v); } });
      series.push({ label: '80 % low', stroke: 'rgba(11,87,164,0.25)', value: function (u, v) { return fmt(v); } });
      columns.push(data.high, data.low);
    }
    var opts = {
      width: Math.max(200, box.clientWidth), height: 260, series: series,
      axes: [{}, { size: 70, values: function (u, vals) { return vals.map(fmt); } }],
      bands: band ? [{ series: [2, 3], fill: 'rgba(11,87,164,0.15)' }] : [],
      scales: { x: { time: true } },
    };
    var plot = new uPlot(opts, columns, box);
    box.dataset.points = String(data.t.length);
    window.addEventListener('resize', function () { plot.setSize({ width: Math.max(200, box.clientWidth), height: 260 }); });
  }
  document.querySelectorAll('[data-chart]').forEach(draw);
  document.querySelectorAll('input[type=file][data-into]').forEach(function (input) {
    input.addEventListener('change', function () {
      var file = input.files && input.files[0];
      if (!file) return;
      file.text().then(function (text) { document.getElementById(input.dataset.into).value = text; });
    });
  });
})();
`;

export interface Asset {
  type: string;
  body: () => Buffer;
}

/** Read once, on first request. */
function once(read: () => Buffer): () => Buffer {
  let kept: Buffer | undefined;
  return () => (kept ??= read());
}

const fromUplot = (file: string) =>
  once(() => readFileSync(createRequire(import.meta.url).resolve(`uplot/dist/${file}`)));

export const ASSETS: Readonly<Record<string, Asset>> = {
  'web.css': { type: 'text/css; charset=utf-8', body: once(() => Buffer.from(CSS)) },
  'web.js': { type: 'text/javascript; charset=utf-8', body: once(() => Buffer.from(SCRIPT)) },
  'uPlot.iife.min.js': { type: 'text/javascript; charset=utf-8', body: fromUplot('uPlot.iife.min.js') },
  'uPlot.min.css': { type: 'text/css; charset=utf-8', body: fromUplot('uPlot.min.css') },
};

/** The scripts a page with a chart loads, in order. */
export const CHART_SCRIPTS = ['/assets/uPlot.iife.min.js', '/assets/web.js'] as const;
