/**
 * Scripts the printer runs inside the page, kept as plain JavaScript source: a compiled function would
 * carry the compiler's helpers (e.g. `__name`), which do not exist in the page.
 */

/** The page's images come from here, answered from the stored files, so no file is put into the HTML. */
export const EXPORT_ORIGIN = 'https://export.invalid';

/** Size of a chart picture on paper, in CSS pixels (the A4 text column is about 670 px wide). */
export const CHART_WIDTH_PX = 640;
export const CHART_HEIGHT_PX = 300;

/**
 * Draws each chart (in the order of the page's `figure.eln-chart`, which is the document's) with chart.js,
 * just under its caption and above its data table, checks that pixels were drawn, and replaces the canvas
 * by a PNG picture of it, so the printout holds an image whatever chromium does with canvases. Answers
 * how many were drawn.
 */
export const DRAW_CHARTS_SCRIPT = `function drawCharts(charts) {
  var figures = document.querySelectorAll('figure.eln-chart');
  var drawn = 0;
  for (var i = 0; i < charts.length; i += 1) {
    var chart = charts[i];
    var figure = figures[i];
    if (!chart.config || !figure) continue;
    var holder = document.createElement('div');
    holder.className = 'pdf-chart-picture';
    var canvas = document.createElement('canvas');
    canvas.style.width = '${CHART_WIDTH_PX}px';
    canvas.style.height = '${CHART_HEIGHT_PX}px';
    canvas.width = ${CHART_WIDTH_PX};
    canvas.height = ${CHART_HEIGHT_PX};
    holder.appendChild(canvas);
    var caption = figure.querySelector('figcaption');
    figure.insertBefore(holder, caption ? caption.nextSibling : figure.firstChild);
    var instance = new window.Chart(canvas, chart.config);
    instance.draw();
    var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    var inked = false;
    for (var p = 3; p < pixels.length; p += 4 * 97) {
      if (pixels[p] !== 0) { inked = true; break; }
    }
    if (!inked) continue;
    var picture = document.createElement('img');
    picture.src = canvas.toDataURL('image/png');
    picture.alt = chart.label;
    picture.className = 'pdf-chart-image';
    picture.style.width = '${CHART_WIDTH_PX}px';
    picture.style.height = '${CHART_HEIGHT_PX}px';
    instance.destroy();
    holder.replaceChild(picture, canvas);
    drawn += 1;
  }
  return Promise.all(Array.prototype.map.call(document.querySelectorAll('img.pdf-chart-image'), function (img) { return img.decode(); })).then(function () { return drawn; });
}`;

/**
 * Links to the export's own file origin lead nowhere outside this printout: they are kept as plain text.
 */
export const UNLINK_EXPORT_URLS_SCRIPT = `document.querySelectorAll('a[href^="${EXPORT_ORIGIN}/"]').forEach(function (a) { a.removeAttribute('href'); })`;
