/*
 * cli_html.js - the script of the commprof HTML page (src/cli/cli_html.c):
 * reads the JSON of <script id="cp-data"> and draws every view with
 * Chart.js, inlined before it; each view has its table one click away
 * (a <details> element, filled when opened).  The data arrive aggregated
 * and sampled by the command: nothing here loops over a run's rows.
 * Every chart's canvas gets data-cp-chart="drawn" once Chart.js has drawn
 * it, or "failed"; window.cpCharts lists them (the browser test reads
 * both).
 */
'use strict';
(function () {
const D = JSON.parse(document.getElementById('cp-data').textContent);
const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
	'#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const SQ = { square: true };	/* a heat map's box */
window.cpCharts = [];

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const k in attrs || {})
		e.setAttribute(k, attrs[k]);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function fmtTime(s) {
	if (s === null || s === undefined || isNaN(s))
		return '-';
	const a = Math.abs(s);
	if (a < 1e-6) return (s * 1e9).toFixed(0) + ' ns';
	if (a < 1e-3) return (s * 1e6).toFixed(2) + ' us';
	if (a < 1) return (s * 1e3).toFixed(3) + ' ms';
	return s.toFixed(3) + ' s';
}

function fmtBytes(b) {
	const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let i = 0;
	while (b >= 1024 && i < u.length - 1) {
		b /= 1024;
		i++;
	}
	return (i ? b.toFixed(1) : String(b)) + ' ' + u[i];
}

/* Tick labels: times or sizes on a log axis at 1, 2 and 5 of each
 * decade only, so that they do not crowd. */
function logTicks(fmt) {
	return { callback: function (v) {
		const m = v / Math.pow(10, Math.floor(Math.log10(v)) + 1e-12);
		return [1, 2, 5].some(function (x) {
			return Math.abs(m - x) < 1e-6; }) ? fmt(v) : '';
	} };
}

function timeTicks() {
	return { callback: function (v) { return fmtTime(v); } };
}

function color(i) {
	return COLORS[i % COLORS.length];
}

/* A section: heading, note, a row of charts, a table behind a click. */
function section(id, title, note) {
	const s = el('section', { id: id });
	s.appendChild(el('h2', {}, title));
	if (note)
		s.appendChild(el('p', { class: 'note' }, note));
	const charts = el('div', { class: 'charts' });
	s.appendChild(charts);
	document.body.appendChild(s);
	const nav = document.querySelector('nav');
	const a = el('a', { href: '#' + id }, title.replace(/:.*/, ''));
	nav.appendChild(a);
	return { s: s, charts: charts };
}

/* A table of rows (arrays) under heads, built when first opened. */
function table(sec, label, heads, rows, numeric) {
	const d = el('details');
	d.appendChild(el('summary', {}, label + ' (' + rows.length +
			 ' rows)'));
	d.addEventListener('toggle', function () {
		if (!d.open || d.querySelector('table'))
			return;
		const box = el('div', { class: 'scroll' });
		const t = el('table');
		const hr = el('tr');
		heads.forEach(function (h) { hr.appendChild(el('th', {}, h)); });
		t.appendChild(hr);
		rows.forEach(function (r) {
			const tr = el('tr');
			r.forEach(function (c, j) {
				tr.appendChild(el('td', numeric && numeric[j] ?
					{ class: 'num' } : {},
					c === null || c === undefined ? '-' :
					String(c)));
			});
			t.appendChild(tr);
		});
		box.appendChild(t);
		d.appendChild(box);
	});
	sec.s.appendChild(d);
}

/* The rows of a report table (section of "report --format json"). */
function reportTable(sec, key) {
	const t = D.data.tables[key];
	if (!t || !t.rows.length)
		return;
	const cols = Object.keys(t.rows[0]);
	const num = cols.map(function (c) {
		return typeof t.rows[0][c] === 'number';
	});
	table(sec, 'Table: ' + t.title.replace(/^\d+\. /, ''), cols,
	      t.rows.map(function (r) {
		return cols.map(function (c) { return r[c]; });
	      }), num);
}

/* A canvas in sec; returns its context or null (then says why). */
function canvas(sec, title, opts) {
	const box = el('div', { class: 'chart' + (opts && opts.wide ?
		' wide' : '') + (opts && opts.square ? ' square' : '') });
	box.appendChild(el('h3', {}, title));
	const c = el('canvas', { 'data-cp-chart': 'pending' });
	c.id = 'cp-chart-' + window.cpCharts.length;
	box.appendChild(c);
	sec.charts.appendChild(box);
	return c;
}

function empty(sec, text) {
	sec.charts.appendChild(el('p', { class: 'empty' }, text));
}

/* Chart.js on canvas c; the canvas is marked once it has drawn. */
function chart(c, config) {
	config.options = config.options || {};
	config.options.animation = false;
	config.options.responsive = true;
	config.plugins = (config.plugins || []).concat([{
		id: 'cpDrawn',
		afterRender: function (ch) {
			ch.canvas.setAttribute('data-cp-chart', 'drawn');
		}
	}]);
	try {
		window.cpCharts.push(new Chart(c, config));
	} catch (e) {
		c.setAttribute('data-cp-chart', 'failed');
		throw e;
	}
}

/* ---- heat maps: a scatter of square points, one per cell ---- */

function heat(t, lo, hi) {
	/* light yellow to dark red, on a log scale */
	const x = hi > lo ? (Math.log(t) - Math.log(lo)) /
		  (Math.log(hi) - Math.log(lo)) : 1;
	const r = Math.round(255 - 80 * x), g = Math.round(237 - 217 * x);
	const b = Math.round(160 - 120 * x);
	return 'rgb(' + r + ',' + g + ',' + b + ')';
}

/* cells: [{x, y, v, tip}] on a grid of nx columns and ny rows;
 * xLabel(i), yLabel(i) name column and row i. */
function heatmap(c, nx, ny, cells, xTitle, yTitle, xLabel, yLabel, fmt) {
	const vals = cells.map(function (p) { return p.v; }).filter(
		function (v) { return v > 0; });
	const lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals);
	/* a tick on every step-th cell, none between cells */
	const cellTicks = function (n) {
		const step = Math.max(1, Math.ceil(n / 16));
		return function (axis) {
			axis.ticks = [];
			for (let i = 0; i < n; i += step)
				axis.ticks.push({ value: i });
		};
	};
	const radius = function (ctx) {
		const a = ctx.chart.chartArea;
		/* a 'rect' point of radius r is a square of side 1.41 r */
		return a ? Math.max(1, Math.min(a.width / nx, a.height / ny) *
				    0.7) : 2;
	};
	chart(c, {
		type: 'scatter',
		data: { datasets: [{ data: cells, pointStyle: 'rect',
			pointRadius: radius, pointHoverRadius: radius,
			borderWidth: 0,
			backgroundColor: function (ctx) {
				const p = ctx.raw;
				return p && p.v > 0 ? heat(p.v, lo, hi) : '#fff';
			} }] },
		options: {
			aspectRatio: 1.15,
			plugins: { legend: { display: false }, tooltip: {
				callbacks: { label: function (ctx) {
					return ctx.raw.tip; } } } },
			scales: {
				x: { min: -0.5, max: nx - 0.5, title: {
					display: true, text: xTitle },
				     afterBuildTicks: cellTicks(nx), ticks: {
					callback: xLabel } },
				y: { min: -0.5, max: ny - 0.5, reverse: true,
				     title: { display: true, text: yTitle },
				     afterBuildTicks: cellTicks(ny), ticks: {
					callback: yLabel } }
			}
		}
	});
	c.parentNode.appendChild(el('p', { class: 'note' }, vals.length ?
		'light: ' + fmt(lo) + ', dark: ' + fmt(hi) + ' (log scale)' :
		'no traffic'));
}

/* ---- report views ---- */

function facts() {
	const h = D.data.tables.header;
	const p = el('p', { class: 'facts' });
	const add = function (k, v) {
		p.appendChild(el('b', {}, k + ': '));
		p.appendChild(document.createTextNode(v + '   '));
	};
	add('ranks', h.ranks);
	add('app time', fmtTime(h.app_time));
	add('MPI time', fmtTime(h.mpi_time) + (h.mpi_share_pct !== null ?
		' (' + h.mpi_share_pct.toFixed(2) + '%)' : ''));
	add('calls', h.calls);
	add('bytes', fmtBytes(h.bytes));
	add('models', h.pred_models || 'none');
	add('predictions', h.pred_note || 'as calibrated');
	document.body.appendChild(p);
}

function matrixView() {
	const m = D.data.matrix;
	const sec = section('matrix', 'Communication matrix: bytes and time ' +
		'per pair of ranks', 'Point to point from the aggregates ' +
		'(bytes once per message, by its send; time of the sends ' +
		'and their receives). Collectives: the rooted ones as the ' +
		'linear schedule LMO models (root to every rank, or every ' +
		'rank to the root), from the call rows; the tree MPI really ' +
		'used is not recorded.' + (m.block > 1 ? ' A cell is ' +
		m.block + ' ranks by ' + m.block + '.' : ''));
	const label = function (i) {
		return m.block > 1 ? (i * m.block) + '-' +
		       Math.min(m.ranks - 1, (i + 1) * m.block - 1) : String(i);
	};
	const cells = function (v, k, fmt) {
		return v.map(function (r) {
			return { x: r[1], y: r[0], v: r[k], tip: 'rank ' +
				 label(r[0]) + ' to ' + label(r[1]) + ': ' +
				 fmtBytes(r[2]) + ' in ' + r[3] + ' messages, ' +
				 fmtTime(r[4]) };
		});
	};
	if (!m.p2p.length && !m.coll.length) {
		empty(sec, 'no point-to-point messages or rooted collectives');
		return;
	}
	if (m.p2p.length) {
		heatmap(canvas(sec, 'Point to point: bytes', SQ), m.n, m.n,
			cells(m.p2p, 2), 'receiver rank', 'sender rank', label,
			label, fmtBytes);
		heatmap(canvas(sec, 'Point to point: MPI time', SQ), m.n, m.n,
			cells(m.p2p, 4), 'receiver rank', 'sender rank', label,
			label, fmtTime);
	}
	if (m.coll.length)
		heatmap(canvas(sec, 'Rooted collectives: bytes', SQ), m.n,
			m.n, cells(m.coll, 2), 'receiver rank', 'sender rank',
			label, label, fmtBytes);
	const rows = function (v, kind) {
		return v.map(function (r) {
			return [kind, label(r[0]), label(r[1]), r[2], r[3],
				fmtTime(r[4])];
		});
	};
	table(sec, 'Table: traffic per pair', ['kind', 'sender', 'receiver',
		'bytes', 'messages', 'MPI time'],
	      rows(m.p2p, 'p2p').concat(rows(m.coll, 'collective')),
	      [false, true, true, true, true, true]);
}

function scatterView() {
	const s = D.data.scatter;
	const sec = section('scatter', 'Measured against predicted, per model',
		'Each point a matched row: t_transfer (measured) against the ' +
		'model\'s prediction, log-log; on the line y = x the model ' +
		'is exact. ' + (s.step > 1 ? 'One row in ' + s.step + ' of ' +
		s.rows + ' is shown.' : s.rows + ' rows.'));
	if (!s.points.length) {
		empty(sec, 'no predicted row was compared (no predictions, or ' +
		      'nothing matched)');
		return;
	}
	s.models.forEach(function (name, k) {
		const pts = s.points.filter(function (p) {
			return p[3 + k] !== null && p[2] > 0 && p[3 + k] > 0;
		});
		if (!pts.length)
			return;
		let lo = Infinity, hi = 0;
		const sets = s.ops.map(function (op, i) {
			const d = pts.filter(function (p) { return p[0] === i; })
				.map(function (p) {
					lo = Math.min(lo, p[2], p[3 + k]);
					hi = Math.max(hi, p[2], p[3 + k]);
					return { x: p[2], y: p[3 + k], b: p[1] };
				});
			return { label: op, data: d, backgroundColor: color(i),
				 pointRadius: 2.5 };
		}).filter(function (d) { return d.data.length; });
		sets.push({ type: 'line', label: 'y = x', data: [
			{ x: lo, y: lo }, { x: hi, y: hi }], borderColor: '#888',
			borderDash: [4, 4], pointRadius: 0, borderWidth: 1 });
		chart(canvas(sec, name), {
			type: 'scatter', data: { datasets: sets },
			options: {
				/* points already {x, y}: Chart.js need not
				 * parse or sort them again */
				parsing: false, normalized: true,
				aspectRatio: 1.3,
				plugins: { tooltip: { callbacks: { label:
					function (ctx) {
						const r = ctx.raw;
						return ctx.dataset.label + ' ' +
							(r.b !== undefined ?
							 fmtBytes(r.b) + ': ' : '') +
							'measured ' + fmtTime(r.x) +
							', predicted ' + fmtTime(r.y);
					} } } },
				scales: {
					x: { type: 'logarithmic', title: {
						display: true,
						text: 't_transfer, measured' },
					     ticks: logTicks(fmtTime) },
					y: { type: 'logarithmic', title: {
						display: true,
						text: 'predicted' },
					     ticks: logTicks(fmtTime) }
				}
			}
		});
	});
	table(sec, 'Table: the rows shown', ['op', 'bytes', 't_transfer']
	      .concat(s.models), s.points.map(function (p) {
		return [s.ops[p[0]], p[1]].concat(p.slice(2).map(fmtTime));
	      }), [false, true, true, true, true, true, true, true]);
}

/* Grouped bars of mu_bar per model over the keys of one accuracy group;
 * the best model of each key is drawn with a black border.  With more
 * than max keys, the max worst predicted by their best model (the table
 * has them all).  Returns the number of keys of the group. */
function muChart(sec, title, group, rows, max) {
	let keys = [];
	const models = [], byKey = new Map(), seen = new Set();
	rows.forEach(function (r) {
		if (r.group !== group)
			return;
		let m = byKey.get(r.key);
		if (!m) {
			m = new Map();
			byKey.set(r.key, m);
			keys.push(r.key);
		}
		m.set(r.model, r);
		if (!seen.has(r.model)) {
			seen.add(r.model);
			models.push(r.model);
		}
	});
	const nkeys = keys.length;
	if (!nkeys)
		return 0;
	const find = function (k, m) { return byKey.get(k).get(m); };
	if (max && nkeys > max) {
		const best = function (k) {
			let b = Infinity;
			byKey.get(k).forEach(function (r) {
				if (r.mu_bar !== null && r.mu_bar < b)
					b = r.mu_bar;
			});
			return b === Infinity ? 0 : b;
		};
		const rank = new Map(keys.map(function (k) {
			return [k, best(k)]; }));
		const kept = new Set(keys.slice().sort(function (a, b) {
			return rank.get(b) - rank.get(a); }).slice(0, max));
		keys = keys.filter(function (k) { return kept.has(k); });
		title += ': the ' + max + ' of ' + nkeys + ' worst predicted ' +
			'by their best model';
	}
	chart(canvas(sec, title, { wide: keys.length > 8 }), {
		type: 'bar',
		data: { labels: keys, datasets: models.map(function (m, i) {
			const rs = keys.map(function (k) { return find(k, m); });
			return { label: m, backgroundColor: color(i),
				data: rs.map(function (r) {
					return r ? r.mu_bar : null; }),
				borderColor: '#000',
				borderWidth: rs.map(function (r) {
					return r && r.best ? 2 : 0; }) };
		}) },
		options: {
			plugins: { tooltip: { callbacks: { label: function (ctx) {
				const r = find(keys[ctx.dataIndex],
					       ctx.dataset.label);
				return ctx.dataset.label + ': mu_bar ' +
					r.mu_bar.toFixed(3) + ', median ' +
					r.median.toFixed(3) + ', p90 ' +
					r.p90.toFixed(3) + ', ' + r.rows + ' rows' +
					(r.best ? ' (best)' : '');
			} } } },
			scales: { y: { type: 'logarithmic', title: { display: true,
				text: 'mu_bar (1 exact)' } } }
		}
	});
	return nkeys;
}

function muView() {
	const rows = D.data.tables.accuracy.rows;
	const sec = section('mu', 'Model accuracy: mu by size class and by ' +
		'operation', 'mu = max(t_transfer, pred) / min(t_transfer, ' +
		'pred): 1 is exact, 2 off by a factor of two. The best model ' +
		'(lowest mu_bar) of each group has a black border.');
	const a = muChart(sec, 'mu_bar per size class', 'size', rows);
	const b = muChart(sec, 'mu_bar per operation', 'op', rows);
	if (!a && !b)
		empty(sec, D.data.tables.accuracy.note || 'no mu');
	reportTable(sec, 'accuracy');
	reportTable(sec, 'coverage');
	reportTable(sec, 'coverage_reasons');
}

function siteLabel(r) {
	return r.site + (r.function ? ' ' + r.function : '') + ' ' + r.op;
}

function sitesView() {
	const t = D.data.tables.sites;
	const sec = section('sites', 'Where time goes: callsites by MPI time',
			    t.note);
	if (!t.rows.length) {
		empty(sec, 'no calls recorded');
		return;
	}
	chart(canvas(sec, 'MPI time per callsite', { wide: true }), {
		type: 'bar',
		data: { labels: t.rows.map(siteLabel), datasets: [{
			label: 'MPI time (s)', backgroundColor: color(0),
			data: t.rows.map(function (r) { return r.time; }) }] },
		options: {
			indexAxis: 'y', aspectRatio: Math.max(1.2, 6 /
				Math.max(1, t.rows.length / 3)),
			plugins: { legend: { display: false }, tooltip: {
				callbacks: { label: function (ctx) {
					const r = t.rows[ctx.dataIndex];
					return fmtTime(r.time) + ', ' +
						r.pct_mpi.toFixed(2) + '% of MPI ' +
						'time, ' + r.calls + ' calls';
				} } } },
			scales: { x: { title: { display: true,
				text: 'MPI time' }, ticks: timeTicks() } }
		}
	});
	reportTable(sec, 'sites');
}

function stridedView() {
	const t = D.data.tables.strided;
	const sec = section('strided', 'Middleware-dominated strided sends',
			    t.note);
	const groups = [];
	t.rows.forEach(function (r) {
		let g = groups.find(function (x) {
			return x.site === r.site && x.op === r.op &&
			       x.bytes === r.bytes && x.layout === r.layout;
		});
		if (!g) {
			g = { site: r.site, op: r.op, bytes: r.bytes,
			      layout: r.layout, r: r, fix: {} };
			groups.push(g);
		}
		g.fix[r.fix] = r.saving;
	});
	if (!groups.length) {
		empty(sec, t.note || 'none');
		return;
	}
	const sets = [['measured', 'measured'], ['log3P T', 'pred_log3p'],
		      ['l_mw', 'pred_lmw']].map(function (s, i) {
		return { label: s[0] + ' per call', backgroundColor: color(i),
			 data: groups.map(function (g) { return g.r[s[1]]; }) };
	});
	['contiguous layout', 'manual packing', 'blocked packing'].forEach(
		function (f, i) {
			sets.push({ label: 'saving: ' + f, backgroundColor:
				    color(3 + i), data: groups.map(function (g) {
					return g.fix[f]; }) });
		});
	chart(canvas(sec, 'Per call: measured, log3P, l_mw and the saving of ' +
		     'each fix', { wide: true }), {
		type: 'bar',
		data: { labels: groups.map(function (g) {
			return g.site + ' ' + g.op + ' ' + g.bytes + ' B ' +
			       (g.layout || ''); }), datasets: sets },
		options: { indexAxis: 'y', plugins: { tooltip: { callbacks: {
			label: function (ctx) {
				return ctx.dataset.label + ': ' +
					fmtTime(ctx.raw);
			} } } },
			scales: { x: { title: { display: true,
				text: 'time per call' }, ticks: timeTicks() } } }
	});
	reportTable(sec, 'strided');
}

function timelineView() {
	const tl = D.data.timeline;
	const sec = section('timeline', 'Timeline: MPI calls per rank',
		'Per rank and per time bin of ' + fmtTime(tl.bin) + ', the ' +
		'longest call in MPI (nonblocking posts are left out: their ' +
		'time is in their Wait)' + (tl.rank_step > 1 ? '; one rank in ' +
		tl.rank_step + ' of ' + tl.ranks : '') + '.');
	if (!tl.calls.length) {
		empty(sec, 'no call rows');
		return;
	}
	const ranks = [];
	tl.calls.forEach(function (c) {
		if (ranks.indexOf(c[0]) < 0) ranks.push(c[0]);
	});
	const labels = ranks.map(function (r) { return 'rank ' + r; });
	const sets = tl.ops.map(function (op, i) {
		return { label: op, backgroundColor: color(i),
			 minBarLength: 2, barPercentage: 0.9,
			 categoryPercentage: 1,
			 data: tl.calls.filter(function (c) {
				return c[1] === i; }).map(function (c) {
				return { y: 'rank ' + c[0], x: [c[2],
					 c[2] + c[3]] }; }) };
	}).filter(function (d) { return d.data.length; });
	chart(canvas(sec, 'MPI calls over the run', { wide: true }), {
		type: 'bar', data: { labels: labels, datasets: sets },
		options: {
			indexAxis: 'y', grouped: false,
			aspectRatio: Math.max(1.5, 8 / Math.max(1,
				ranks.length / 4)),
			plugins: { tooltip: { callbacks: { label:
				function (ctx) {
					const x = ctx.raw.x;
					return ctx.dataset.label + ' at ' +
						fmtTime(x[0]) + ', ' +
						fmtTime(x[1] - x[0]);
				} } } },
			scales: { x: { type: 'linear', min: 0, max: tl.t_end,
				ticks: timeTicks(), title: { display: true,
					 text: 'job clock' } } }
		}
	});
	table(sec, 'Table: the calls shown', ['rank', 'op', 'start (s)',
		'duration'], tl.calls.map(function (c) {
		return [c[0], tl.ops[c[1]], c[2], fmtTime(c[3])];
	}), [true, false, true, true]);
}

/* LMO's link rates of a parameter file as a heat map (MB/s). */
/* LMO's regimes (commprof-params(5)): one per protocol of the MPI
 * library, regime k for messages of first_bytes and more. */
function lmoRegimes(p) {
	return (p && p.lmo && p.lmo.regimes) || [];
}

function regimeName(r, next) {
	return 'messages of ' + fmtBytes(r.first_bytes) + (next ? ' to ' +
		fmtBytes(next.first_bytes - 1) : ' and more');
}

/* The link rates of every regime, a matrix and a table each. */
function linkRates(sec, p) {
	const regs = lmoRegimes(p);
	let drawn = 0;
	regs.forEach(function (r, k) {
		const b = r.beta_Bps, name = regimeName(r, regs[k + 1]);
		if (!b || b.length < 2)
			return;
		const cells = [], rows = [];
		b.forEach(function (row, i) {
			row.forEach(function (v, j) {
				if (!v || v.value === undefined ||
				    !(v.value > 0))
					return;
				const mb = v.value / 1e6;
				cells.push({ x: j, y: i, v: mb, tip: 'link ' +
					i + '-' + j + ': ' + mb.toFixed(1) +
					' MB/s (' + (v.lo / 1e6).toFixed(1) +
					' to ' + (v.hi / 1e6).toFixed(1) +
					')' + (v.ambiguous ? ', ambiguous' :
					'') });
				if (i < j)
					rows.push([i + '-' + j, mb.toFixed(2),
						   (1e9 / v.value).toFixed(3)]);
			});
		});
		if (!cells.length)
			return;
		heatmap(canvas(sec, 'LMO link rates beta_ij (MB/s), ' + name,
			SQ), b.length, b.length, cells, 'rank', 'rank', String,
			String, function (x) {
				return x.toFixed(1) + ' MB/s'; });
		table(sec, 'Table: link rates, ' + name, ['link', 'beta MB/s',
		      '1/beta ns/B'], rows, [false, true, true]);
		drawn++;
	});
	if (!drawn)
		empty(sec, 'no LMO link rates' + (D.data.params_note ?
			' (' + D.data.params_note + ')' : ''));
}

function linksView() {
	const rows = D.data.tables.accuracy.rows;
	const sec = section('links', 'Heterogeneous links: accuracy per link ' +
		'and calibrated rates', 'Per pair of ranks (link a-b: messages ' +
		'between world ranks a and b, either way), each model\'s ' +
		'mu_bar; and the link rates LMO calibrated (' +
		(D.data.params_note || 'no parameter file') + ').');
	if (!muChart(sec, 'mu_bar per link', 'link', rows, 64))
		empty(sec, 'messages went over one link only, or no mu');
	linkRates(sec, D.data.params);
}

function ranksView() {
	const t = D.data.tables.ranks, st = D.data.tables.site_ranks;
	const sec = section('ranks', 'Per rank: MPI time, share and ' +
			    'imbalance', t.note + '. ' + (st.note || ''));
	if (t.rows.length)
		chart(canvas(sec, 'MPI time per rank', { wide: t.rows.length >
							 16 }), {
			type: 'bar',
			data: { labels: t.rows.map(function (r) {
				return String(r.rank); }), datasets: [{
				label: 'MPI time (s)', backgroundColor: color(0),
				data: t.rows.map(function (r) {
					return r.mpi_time; }) }] },
			options: { plugins: { tooltip: { callbacks: { label:
				function (ctx) {
					const r = t.rows[ctx.dataIndex];
					return fmtTime(r.mpi_time) + (r.pct_app !==
						null ? ', ' + r.pct_app.toFixed(2) +
						'% of app time' : '');
				} } } },
				scales: { x: { title: { display: true,
					text: 'rank' } }, y: { title: {
					display: true, text: 'MPI time' },
					ticks: timeTicks() } } }
		});
	if (st.rows.length)
		chart(canvas(sec, 'MPI time per rank at each callsite: ' +
			     'least to most, and the mean'), {
			type: 'bar',
			data: { labels: st.rows.map(siteLabel), datasets: [{
				type: 'line', label: 'mean', showLine: false,
				pointStyle: 'rectRot', pointRadius: 5,
				backgroundColor: '#000', data: st.rows.map(
					function (r) { return r.mean; }) }, {
				label: 'least to most', backgroundColor: color(1),
				minBarLength: 2, data: st.rows.map(function (r) {
					return [r.min, r.max]; }) }] },
			options: { indexAxis: 'y', scales: { x: {
				ticks: timeTicks() } }, plugins: { tooltip: {
				callbacks: { label: function (ctx) {
					const r = st.rows[ctx.dataIndex];
					return 'least ' + fmtTime(r.min) + ' (rank ' +
						r.min_rank + '), mean ' +
						fmtTime(r.mean) + ', most ' +
						fmtTime(r.max) + ' (rank ' +
						r.max_rank + ')';
				} } } } }
		});
	reportTable(sec, 'ranks');
	reportTable(sec, 'site_ranks');
}

function worstView() {
	const sec = section('worst', 'Worst-predicted calls',
			    D.data.tables.worst.note);
	reportTable(sec, 'worst');
}

/* ---- params show ---- */

function v(p) {
	return p && p.value !== undefined ? p.value : null;
}

/* l_mw over strided size (rows) and block and gap (columns). */
function paramsLog3p(p) {
	const l = p.log3p;
	const sec = section('log3p', 'log3P tables', 'The middleware ' +
		'latency l_mw over strided message size and layout (blocks ' +
		'of a size, gaps between them), and the three other terms ' +
		'over size.');
	if (!l || !l.size_bytes || !l.size_bytes.length) {
		empty(sec, 'no log3P tables in the file');
		return;
	}
	const ss = l.ssize_bytes || [], bl = l.block_bytes || [];
	const gp = l.gap_bytes || [];
	const cells = [], rows = [], ng = gp.length;
	const lay = function (c) {
		return fmtBytes(bl[Math.floor(c / ng)]) + ' / ' +
			fmtBytes(gp[c % ng]);
	};
	(l.l_mw_s || []).forEach(function (byb, i) {
		byb.forEach(function (byg, j) {
			byg.forEach(function (x, g) {
				const c = j * ng + g;
				if (v(x) > 0)
					cells.push({ x: c, y: i, v: v(x), tip:
						'size ' + fmtBytes(ss[i]) +
						', block ' + fmtBytes(bl[j]) +
						', gap ' + fmtBytes(gp[g]) +
						': l_mw ' + fmtTime(v(x)) });
				rows.push([ss[i], bl[j], gp[g],
					   fmtTime(v(x))]);
			});
		});
	});
	if (cells.length)
		heatmap(canvas(sec, 'l_mw (size by block / gap)', SQ),
			bl.length * ng, ss.length, cells, 'block / gap',
			'message size', lay, function (i) {
				return fmtBytes(ss[i]); }, fmtTime);
	const terms = [['t_mem', 't_mem_s'], ['o_mw', 'o_mw_s'],
		       ['o_net', 'o_net_s']];
	chart(canvas(sec, 'Terms over message size'), {
		type: 'line',
		data: { datasets: terms.map(function (t, i) {
			return { label: t[0], borderColor: color(i),
				 backgroundColor: color(i), data:
				 l.size_bytes.map(function (s, k) {
					return { x: s, y: v(l[t[1]][k]) }; }) };
		}) },
		options: { scales: {
			x: { type: 'logarithmic', title: { display: true,
				text: 'message size' }, ticks: logTicks(fmtBytes) },
			y: { type: 'logarithmic', title: { display: true,
				text: 'time' }, ticks: logTicks(fmtTime) } } }
	});
	table(sec, 'Table: l_mw', ['size (B)', 'block (B)', 'gap (B)',
	      'l_mw'], rows, [true, true, true, true]);
}

/* LMO's linear scatter and gather from root 0 (README "References"), with the
 * thresholds S, M1 and M2; the gather is not predicted in M1..M2. */
function paramsThresholds(p) {
	const l = p.lmo;
	const sec = section('thresholds', 'LMO scatter and gather, with ' +
		'thresholds', 'Predicted time of a linear scatter and gather ' +
		'from root 0 to every other rank; the dashed lines are S ' +
		'(scatter) and M1, M2 (gather: not predicted between them).');
	const S = v(l && l.S_bytes), M1 = v(l && l.M1_bytes);
	const M2 = v(l && l.M2_bytes);
	const regs = lmoRegimes(p);
	if (!regs.length || !regs[0].C_s || regs[0].C_s.length < 2 ||
	    S === null) {
		empty(sec, 'no LMO parameters in the file');
		return;
	}
	const n = regs[0].C_s.length;
	const k1 = v(l.kappa1_spb[0]) || 0, k2 = v(l.kappa2_spb[0]) || 0;
	/* each size priced with the parameters of its regime */
	const parts = function (M) {
		let r = regs[0], mx = 0, sum = 0;
		regs.forEach(function (q) {
			if (q.first_bytes <= M)
				r = q;
		});
		const C = r.C_s.map(v), t = r.t_spb.map(v);
		for (let i = 1; i < n; i++) {
			const x = C[i] + t[i] * M + M / v(r.beta_Bps[0][i]);
			mx = Math.max(mx, x);
			sum += x;
		}
		return { root: (n - 1) * (C[0] + t[0] * M), mx: mx, sum: sum };
	};
	const top = 4 * Math.max(S, M2 || 0, 1024), sc = [], ga = [];
	for (let M = 64; M <= top; M *= 1.25) {
		const q = parts(M);
		sc.push({ x: M, y: q.root + (M <= S ? q.mx : q.sum) });
		ga.push({ x: M, y: M < M1 ? q.root + q.mx + k1 * M :
			  M > M2 ? q.root + q.sum + k2 * M : null });
	}
	const ys = sc.concat(ga).map(function (q) { return q.y; })
		.filter(function (y) { return y > 0; });
	const lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
	const vline = function (x, name, i) {
		return { label: name + ' = ' + fmtBytes(x), data: [
			{ x: x, y: lo }, { x: x, y: hi }], borderColor: color(i),
			borderDash: [5, 4], pointRadius: 0, borderWidth: 1.5 };
	};
	const sets = [{ label: 'scatter', data: sc, borderColor: color(0),
			pointRadius: 0 }, { label: 'gather', data: ga,
			borderColor: color(1), pointRadius: 0,
			spanGaps: false }, vline(S, 'S', 0)];
	if (M1 !== null) sets.push(vline(M1, 'M1', 1));
	if (M2 !== null) sets.push(vline(M2, 'M2', 2));
	chart(canvas(sec, 'Linear scatter and gather, ' + (n - 1) +
		     ' receivers', { wide: true }), {
		type: 'line', data: { datasets: sets },
		options: { scales: {
			x: { type: 'logarithmic', title: { display: true,
				text: 'bytes per rank (M)' },
			     ticks: logTicks(fmtBytes) },
			y: { type: 'logarithmic', title: { display: true,
				text: 'predicted time' },
			     ticks: logTicks(fmtTime) } } }
	});
	table(sec, 'Table: thresholds', ['threshold', 'bytes'],
	      [['S', S], ['M1', M1], ['M2', M2]], [false, true]);
}

/* Channel ch's gap table (taulop.Lg): one line per quiet gap over
 * message size; its cells into rows. */
function gapChart(sec, name, ch, rows) {
	chart(canvas(sec, 'What a message takes more after a quiet gap ' +
		     'outside MPI, ' + name), {
		type: 'line',
		data: { datasets: ch.gap_s.map(function (g, k) {
			return { label: 'gap ' + fmtTime(g),
				 borderColor: color(k), backgroundColor:
				 color(k), data: ch.size_bytes.map(
					function (m, i) {
					return { x: m > 0 ? m : null,
						 y: v(ch.Lg_s[i][k]) };
				}) };
		}) },
		options: { scales: {
			x: { type: 'logarithmic', title: { display: true,
				text: 'message size' }, ticks: logTicks(fmtBytes) },
			y: { title: { display: true, text: 'more than right ' +
				'after the last call' }, ticks: timeTicks() } } }
	});
	ch.size_bytes.forEach(function (m, i) {
		ch.gap_s.forEach(function (g, k) {
			rows.push([name, m, fmtTime(g), fmtTime(v(ch.Lg_s[i][k]))]);
		});
	});
}

/* tau-Lop's L(m, tau) per channel over message size, one line per tau;
 * o(m), L, Lw and Ls in a table; the gap tables; the cost per byte of a
 * local reduction. */
function paramsTaulop(p) {
	const t = p.taulop;
	const sec = section('taulop', 'tau-Lop tables', 'Per channel ' +
		'(shared memory inside a host, the network between hosts): ' +
		'the transfer time L(m, tau) with tau transfers at once and ' +
		'the overhead o(m), over message size m (point-to-point ' +
		'messages are priced with Lw, collectives\' rounds with ' +
		'Ls); and what a message ' +
		'takes more after a quiet gap outside MPI (point-to-point ' +
		'messages pay it).');
	const chans = [['shm', 'shared memory'], ['net', 'network']]
		.filter(function (c) { return t && t[c[0]]; });
	if (!chans.length) {
		empty(sec, 'no tau-Lop tables in the file');
		return;
	}
	const rows = [], gaps = [];
	const pos = function (x) { return x > 0 ? x : null; };
	chans.forEach(function (c) {
		const ch = t[c[0]];
		chart(canvas(sec, 'L(m, tau), ' + c[1] + ', measured on ' +
			     ch.ranks + ' ranks'), {
			type: 'line',
			data: { datasets: ch.tau.map(function (tau, k) {
				return { label: 'tau = ' + tau,
					 borderColor: color(k),
					 backgroundColor: color(k), data:
					 ch.size_bytes.map(function (m, i) {
						return { x: pos(m), y:
							 pos(v(ch.L_s[i][k])) };
					 }) };
			}) },
			options: { scales: {
				x: { type: 'logarithmic', title: { display:
					true, text: 'message size' },
				     ticks: logTicks(fmtBytes) },
				y: { type: 'logarithmic', title: { display:
					true, text: 'L' },
				     ticks: logTicks(fmtTime) } } }
		});
		ch.size_bytes.forEach(function (m, i) {
			ch.tau.forEach(function (tau, k) {
				rows.push([c[1], m, tau, fmtTime(v(ch.o_s[i])),
					   fmtTime(v(ch.L_s[i][k])),
					   fmtTime(v(ch.Lw_s[i][k])),
					   fmtTime(v(ch.Ls_s[i][k]))]);
			});
		});
		if (ch.gap_s)
			gapChart(sec, c[1], ch, gaps);
	});
	table(sec, 'Table: o, L, L of written messages (Lw, point-to-point) ' +
	      'and of rounds that start together (Ls, collectives)',
	      ['channel', 'size (B)', 'tau', 'o', 'L', 'Lw', 'Ls'], rows,
	      [false, true, true, true, true, true, true]);
	if (gaps.length)
		table(sec, 'Table: what a message takes more after a quiet ' +
		      'gap', ['channel', 'size (B)', 'gap', 'more'], gaps,
		      [false, true, true, true]);
	if (v(t.red_spb) !== null)
		sec.s.appendChild(el('p', { class: 'note' }, 'Local ' +
			'reduction: ' + fmtTime(v(t.red_spb) * 1e6) +
			' per MB.'));
}

function paramsPage() {
	const p = D.data.params;
	if (!p) {
		document.body.appendChild(el('p', { class: 'empty' },
			D.data.params_note || 'no parameters'));
		return;
	}
	const f = el('p', { class: 'facts' }, 'MPI: ' + p.mpi_library +
		'; measured ' + p.date + ' on ' + p.nranks + ' ranks, ' +
		p.hosts.length + ' host(s)' + (p.assume.length ?
		'; assumed: ' + p.assume.join('; ') : ''));
	document.body.appendChild(f);
	const sec = section('links', 'LMO link rates', 'beta_ij, the ' +
		'transmission rate of each link, with its interval, per ' +
		'protocol regime of the MPI library.');
	linkRates(sec, p);
	paramsThresholds(p);
	paramsLog3p(p);
	paramsTaulop(p);
}

function main() {
	document.body.appendChild(el('h1', {}, D.title));
	document.body.appendChild(el('nav'));
	if (D.kind === 'params') {
		paramsPage();
		return;
	}
	facts();
	matrixView();
	scatterView();
	muView();
	sitesView();
	stridedView();
	timelineView();
	linksView();
	ranksView();
	worstView();
}

main();
})();
