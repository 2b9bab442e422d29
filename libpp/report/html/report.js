/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opreport --format=html, the page's behaviour: sortable and filterable
 * tables, and the flame graph drawn on a canvas from the trie of
 * #flame-data (libpp/report/html_flame.c describes it).  Only frames at
 * least half a pixel wide are visited, so a redraw costs what is seen,
 * not the number of stacks.  After each drawing, #flame-state says what
 * was drawn (frames, the frame with most samples of its own, times in
 * ms, the samples a search matched) for the tests and benchmarks; the
 * address may ask for a search, a zoom or a timed zoom (at the end).
 */
(function () {
	'use strict';
	var started = performance.now();

	function byId(id) {
		return document.getElementById(id);
	}

	/* ---- tables ---------------------------------------------------- */

	function cellKey(td, num) {
		var t = td.textContent;

		if (!num)
			return t.toLowerCase();
		/* an imprecise metric reads "~0.4"; an undefined one "-" */
		t = parseFloat(t.replace(/^~/, ''));
		return isNaN(t) ? 0 : t;
	}

	function sortTable(table, col, state) {
		var th = table.tHead.rows[0].cells;
		var num = th[col].getAttribute('data-type') === 'num';
		var dir = state.col === col ? -state.dir : (num ? -1 : 1);
		var body = table.tBodies[0];
		var keyed = Array.prototype.map.call(body.rows, function (r, k) {
			return { row: r, key: cellKey(r.cells[col], num), k: k };
		});
		var frag = document.createDocumentFragment();
		var i;

		keyed.sort(function (a, b) {
			if (a.key < b.key)
				return -dir;
			if (a.key > b.key)
				return dir;
			return a.k - b.k;
		});
		keyed.forEach(function (x) {
			frag.appendChild(x.row);
		});
		body.appendChild(frag);
		state.col = col;
		state.dir = dir;
		for (i = 0; i < th.length; i++)
			th[i].setAttribute('aria-sort', i !== col ? 'none' :
					   dir > 0 ? 'ascending' : 'descending');
	}

	function setupTable(table) {
		var state = { col: -1, dir: 1 };

		Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
			th.tabIndex = 0;
			th.addEventListener('click', function () {
				sortTable(table, i, state);
			});
			th.addEventListener('keydown', function (e) {
				if (e.key === 'Enter')
					sortTable(table, i, state);
			});
		});
	}

	function setupFilter(input) {
		var table = byId(input.getAttribute('data-table'));
		var shown = input.parentNode.querySelector('.shown');

		function apply() {
			var q = input.value.toLowerCase(), rows = table.tBodies[0].rows;
			var n = 0, i, ok;

			for (i = 0; i < rows.length; i++) {
				ok = !q || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
				if (rows[i].hidden === ok)	/* only changes restyle */
					rows[i].hidden = !ok;
				n += ok ? 1 : 0;
			}
			shown.textContent = n + ' of ' + rows.length + ' rows';
		}
		input.addEventListener('input', apply);
		shown.textContent = table.tBodies[0].rows.length + ' rows';
	}


	/* ---- the flame graph: the trie ------------------------------------ */

	var data = JSON.parse(byId('flame-data').textContent);
	var names = data.names, raw = data.nodes, nr = raw.length / 3;
	var nameOf = new Int32Array(nr), parent = new Int32Array(nr);
	var self = new Float64Array(nr), total = new Float64Array(nr);
	var depth = new Int32Array(nr), x0 = new Float64Array(nr);
	var first = new Int32Array(nr + 1), kids = new Int32Array(nr);
	var maxDepth = 0, i;

	for (i = 0; i < nr; i++) {
		nameOf[i] = raw[3 * i];
		parent[i] = raw[3 * i + 1];
		self[i] = total[i] = raw[3 * i + 2];
	}
	/* a parent comes before its children: sums from the end */
	for (i = nr - 1; i > 0; i--)
		total[parent[i]] += total[i];
	for (i = 1; i < nr; i++) {
		depth[i] = depth[parent[i]] + 1;
		if (depth[i] > maxDepth)
			maxDepth = depth[i];
		first[parent[i] + 1]++;
	}
	for (i = 0; i < nr; i++)
		first[i + 1] += first[i];
	(function placeChildren() {
		var fill = first.slice(0, nr), k, n, list, order = [];
		var rank = new Int32Array(names.length);

		/* names in order once: children then sort by an integer */
		for (k = 0; k < names.length; k++)
			order.push(k);
		order.sort(function (x, y) {
			return names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0;
		});
		order.forEach(function (j, r) {
			rank[j] = r;
		});

		for (i = 1; i < nr; i++)
			kids[fill[parent[i]]++] = i;
		/* children in name order, and each one's left edge in samples */
		for (n = 0; n < nr; n++) {
			if (first[n + 1] - first[n] > 1) {
				list = Array.prototype.slice.call(kids, first[n], first[n + 1]);
				list.sort(function (a, b) {
					return rank[nameOf[a]] - rank[nameOf[b]];
				});
				kids.set(list, first[n]);
			}
		}
		for (n = 0; n < nr; n++) {
			var at = x0[n] + self[n];

			for (k = first[n]; k < first[n + 1]; k++) {
				x0[kids[k]] = at;
				at += total[kids[k]];
			}
		}
	}());

	/* ---- the flame graph: drawing -------------------------------------- */

	var trieMs = performance.now() - started;
	var canvas = byId('flame-canvas'), ctx = canvas.getContext('2d');
	var tip = byId('flame-tip'), state = byId('flame-state');
	var ROW = 18, MIN_WIDTH = 0.5;
	var zoom = 0, matched = null, drawn = [], lastDraw = 0, widthPx = 0;
	var charWidth = 7;

	function hue(s) {
		var h = 0, k;

		for (k = 0; k < s.length; k++)
			h = (h * 31 + s.charCodeAt(k)) | 0;
		return h >>> 0;
	}

	function colour(n) {
		var h;

		if (matched && matched[nameOf[n]])
			return '#d445c8';
		if (n === 0)
			return '#c9ccd1';
		h = hue(names[nameOf[n]]);
		if (depth[n] === 1)
			return 'hsl(210,45%,' + (70 + h % 10) + '%)';
		return 'hsl(' + (h % 45) + ',' + (75 + h % 20) + '%,' + (55 + (h >> 8) % 15) + '%)';
	}

	function label(n, w) {
		var s = names[nameOf[n]], fit = Math.floor((w - 6) / charWidth);

		if (fit < 3)
			return '';
		return s.length <= fit ? s : s.slice(0, fit - 2) + '..';
	}

	function box(n, x, y, w) {
		var text;

		ctx.fillStyle = colour(n);
		ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
		text = label(n, w);
		if (text) {
			ctx.fillStyle = '#111';
			ctx.fillText(text, x + 3, y + ROW - 5);
		}
		drawn.push({ n: n, x: x, y: y, w: w });
	}

	/* children of n too narrow to draw, side by side: one grey box for
	 * them when together they are wide enough */
	function merged(n, run, scale) {
		var x, w = run.samples * scale;

		if (!run.nr || w < MIN_WIDTH)
			return;
		x = (run.x0 - x0[zoom]) * scale;
		ctx.fillStyle = '#b9bcc2';
		ctx.fillRect(x, (depth[n] + 1) * ROW, Math.max(w - 0.5, 0.5), ROW - 1);
		drawn.push({ n: -1, parent: n, x: x, y: (depth[n] + 1) * ROW, w: w,
			     nr: run.nr, samples: run.samples });
	}

	/* frame n and what is wide enough under it */
	function drawTree(n, scale) {
		var stack = [n], run = { nr: 0, samples: 0, x0: 0 }, k, c;

		while (stack.length) {
			n = stack.pop();
			box(n, (x0[n] - x0[zoom]) * scale, depth[n] * ROW, total[n] * scale);
			run.nr = run.samples = 0;
			for (k = first[n]; k < first[n + 1]; k++) {
				c = kids[k];
				if (total[c] * scale >= MIN_WIDTH) {
					merged(n, run, scale);
					run.nr = run.samples = 0;
					stack.push(c);
					continue;
				}
				if (!run.nr)
					run.x0 = x0[c];
				run.nr++;
				run.samples += total[c];
			}
			merged(n, run, scale);
		}
	}

	function draw() {
		var t, ratio = window.devicePixelRatio || 1;
		var scale, a, ancestors = [];

		widthPx = canvas.parentNode.clientWidth || 1000;	/* lays the page out */
		t = performance.now();
		canvas.style.height = (maxDepth + 1) * ROW + 'px';
		canvas.width = Math.round(widthPx * ratio);
		canvas.height = Math.round((maxDepth + 1) * ROW * ratio);
		ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
		ctx.font = '12px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';
		charWidth = ctx.measureText('mmmmmmmmmm').width / 10 || 7;
		ctx.clearRect(0, 0, widthPx, (maxDepth + 1) * ROW);
		drawn = [];
		/* the zoomed frame's ancestors span the width */
		for (a = parent[zoom]; a >= 0; a = parent[a])
			ancestors.push(a);
		ctx.globalAlpha = 0.55;		/* faded: they are wider than drawn */
		ancestors.forEach(function (p) {
			box(p, 0, depth[p] * ROW, widthPx);
		});
		ctx.globalAlpha = 1;
		scale = total[zoom] ? widthPx / total[zoom] : 0;
		if (scale)
			drawTree(zoom, scale);
		lastDraw = performance.now() - t;
		describe();
		showPath();
	}

	/* #flame-state: what the last drawing showed */
	function describe() {
		var top = -1, k, d, list = byId('flame-widest'), sorted;

		for (k = 0; k < drawn.length; k++) {
			d = drawn[k].n;
			if (d > 0 && depth[d] > 1 && (top < 0 || self[d] > self[top]))
				top = d;
		}
		state.setAttribute('data-frames', drawn.length);
		state.setAttribute('data-merged', drawn.filter(function (f) {
			return f.n < 0;
		}).length);
		state.setAttribute('data-nodes', nr);
		state.setAttribute('data-source', data.source);
		state.setAttribute('data-total', data.total);
		state.setAttribute('data-zoom', names[nameOf[zoom]]);
		state.setAttribute('data-top', top >= 0 ? names[nameOf[top]] : '');
		state.setAttribute('data-draw-ms', lastDraw.toFixed(2));
		if (!list) {
			list = document.createElement('ol');
			list.id = 'flame-widest';
			state.appendChild(list);
		}
		sorted = drawn.filter(function (f) {
			return f.n >= 0;
		}).sort(function (p, q) {
			return q.w - p.w;
		}).slice(0, 20);
		list.textContent = '';
		sorted.forEach(function (f) {
			var li = document.createElement('li');

			li.textContent = names[nameOf[f.n]];
			list.appendChild(li);
		});
	}

	function showPath() {
		var path = [], n;

		for (n = zoom; n > 0; n = parent[n])
			path.unshift(names[nameOf[n]]);
		byId('flame-path').textContent = path.length ? 'Zoomed into: ' +
			path.join(' \u2192 ') : 'Click a frame to zoom into it.';
	}

	function frameAt(ev) {
		var r = canvas.getBoundingClientRect();
		var x = ev.clientX - r.left, y = ev.clientY - r.top, k, f;

		for (k = 0; k < drawn.length; k++) {
			f = drawn[k];
			if (y >= f.y && y < f.y + ROW && x >= f.x && x < f.x + f.w)
				return f;
		}
		return null;
	}

	function percent(part, whole) {
		return whole ? (100 * part / whole).toFixed(2) + '%' : '0%';
	}

	function tipText(f) {
		var n = f.n;

		if (n < 0)
			return f.nr + ' frame' + (f.nr > 1 ? 's' : '') + ' too narrow to draw: ' +
				f.samples + ' samples (' + percent(f.samples, data.total) +
				' of all); click to zoom in';
		return names[nameOf[n]] + '\n' + total[n] + ' samples (' +
			percent(total[n], data.total) + ' of all), self ' + self[n] +
			(zoom ? ', ' + percent(total[n], total[zoom]) + ' of the zoomed frame' : '');
	}

	canvas.addEventListener('mousemove', function (ev) {
		var f = frameAt(ev), r;

		if (!f) {
			tip.hidden = true;
			return;
		}
		tip.textContent = tipText(f);
		tip.style.whiteSpace = 'pre-wrap';
		r = canvas.getBoundingClientRect();
		tip.style.left = Math.min(ev.clientX - r.left + 12, widthPx - 320) + 'px';
		tip.style.top = (ev.clientY - r.top + 14) + 'px';
		tip.hidden = false;
	});
	canvas.addEventListener('mouseleave', function () {
		tip.hidden = true;
	});
	canvas.addEventListener('click', function (ev) {
		var f = frameAt(ev);

		if (f) {
			zoom = f.n < 0 ? f.parent : f.n;
			draw();
		}
	});
	byId('flame-reset').addEventListener('click', function () {
		zoom = 0;
		draw();
	});
	document.addEventListener('keydown', function (ev) {
		if (ev.key === 'Escape' && zoom) {
			zoom = 0;
			draw();
		}
	});

	/* search: frames whose name matches are highlighted; the share
	 * counts each stack once, at its outermost match */
	function search(q) {
		var re, covered, k, sum = 0, any = false;

		if (!q) {
			matched = null;
			byId('flame-match').textContent = '';
			draw();
			return;
		}
		try {
			re = new RegExp(q, 'i');
		} catch (e) {
			re = new RegExp(q.replace(/[.*+\\()[\]{}|^$]/g, '\\$&').replace(/\?/g, '\\?'), 'i');
		}
		matched = new Uint8Array(names.length);
		for (k = 0; k < names.length; k++)
			matched[k] = re.test(names[k]) ? 1 : 0;
		covered = new Uint8Array(nr);
		for (k = 1; k < nr; k++) {
			if (covered[parent[k]]) {
				covered[k] = 1;
			} else if (matched[nameOf[k]]) {
				covered[k] = 1;
				sum += total[k];
				any = true;
			}
		}
		byId('flame-match').textContent = any ? 'Matched: ' + sum + ' samples, ' +
			percent(sum, data.total) + ' of all' : 'No match';
		state.setAttribute('data-matched', sum);
		draw();
	}
	byId('flame-search').addEventListener('input', function (ev) {
		search(ev.target.value);
	});
	window.addEventListener('resize', draw);

	draw();
	state.setAttribute('data-render-ms', (performance.now() - started).toFixed(2));
	state.setAttribute('data-trie-ms', trieMs.toFixed(2));
	Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), setupTable);
	Array.prototype.forEach.call(document.querySelectorAll('input.filter'), setupFilter);
	state.setAttribute('data-tables-ms', (performance.now() - started).toFixed(2));

	/* zoom into the widest grandchild of the root and back: the time of
	 * one redraw */
	function bench() {
		var pick = 0, t;

		for (i = 1; i < nr; i++)
			if (depth[i] === 2 && (!pick || total[i] > total[pick]))
				pick = i;
		t = performance.now();
		zoom = pick;
		draw();
		zoom = 0;
		draw();
		state.setAttribute('data-zoom-ms', ((performance.now() - t) / 2).toFixed(2));
	}

	/* a table's rows filtered by TEXT, or sorted by column COL (from 0;
	 * asked twice, the other way) */
	function tableAsk(key, val) {
		var colon = val.indexOf(':'), id = val.slice(0, colon), arg = val.slice(colon + 1);
		var table = byId(id), input, th;

		if (colon < 0 || !table || !table.tHead)
			return;
		if (key === 'filter') {
			input = document.querySelector('input.filter[data-table="' + id + '"]');
			input.value = arg;
			input.dispatchEvent(new Event('input'));
		} else if ((th = table.tHead.rows[0].cells[+arg])) {
			th.click();
		}
	}

	/* the address may ask for a search, a zoom (into the first frame of
	 * that name), the benchmark, or a table filtered or sorted:
	 * #search=RE&zoom=NAME&bench&filter=TABLE:TEXT&sort=TABLE:COL */
	function decoded(s) {
		try {
			return decodeURIComponent(s);
		} catch (e) {
			return null;	/* not an address this page made */
		}
	}
	location.hash.slice(1).split('&').forEach(function (kv) {
		var eq = kv.indexOf('='), key = decoded(eq < 0 ? kv : kv.slice(0, eq));
		var val = decoded(eq < 0 ? '' : kv.slice(eq + 1)), k;

		if (key === null || val === null)
			return;

		if (key === 'bench') {
			bench();
		} else if (key === 'search') {
			byId('flame-search').value = val;
			search(val);
		} else if (key === 'filter' || key === 'sort') {
			tableAsk(key, val);
		} else if (key === 'zoom') {
			for (k = 1; k < nr; k++)
				if (names[nameOf[k]] === val) {
					zoom = k;
					draw();
					break;
				}
		}
	});
}());
