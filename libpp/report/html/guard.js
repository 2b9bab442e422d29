/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opreport --format=html, first script of the page: any error of the
 * page's scripts is written into the page (#errors), where a reader sees
 * it and a test can check that there was none.  It runs before the
 * body exists, so errors wait for the element.
 */
(function () {
	'use strict';
	var pending = [];

	function flush() {
		var box = document.getElementById('errors');

		if (!box)
			return;
		while (pending.length) {
			var line = document.createElement('div');

			line.textContent = pending.shift();
			box.appendChild(line);
			box.hidden = false;
		}
	}

	function show(text) {
		pending.push(text);
		flush();
	}

	window.addEventListener('error', function (e) {
		show('error: ' + e.message + ' (line ' + e.lineno + ')');
	});
	window.addEventListener('unhandledrejection', function (e) {
		show('unhandled rejection: ' + e.reason);
	});
	document.addEventListener('DOMContentLoaded', flush);
}());
