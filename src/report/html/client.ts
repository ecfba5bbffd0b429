/**
 * The page's only script (besides Chart.js): read the chart specs from the JSON block, hydrate them with
 * the shared formatter source and draw them. Text content never depends on it.
 */
import { HYDRATE_JS } from '../charts/hydrate.js';

export const CLIENT_JS = `${HYDRATE_JS}
(function () {
  var holder = document.getElementById('spgate-charts');
  if (!holder || typeof Chart === 'undefined') return;
  var specs = JSON.parse(holder.textContent || '[]');
  Chart.defaults.font.family = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Arial, sans-serif';
  Chart.defaults.color = '#374151';
  specs.forEach(function (spec) {
    var canvas = document.getElementById('chart-' + spec.id);
    if (!canvas) return;
    try { new Chart(canvas, spgateHydrate(spec)); }
    catch (e) { canvas.insertAdjacentText('afterend', 'chart failed: ' + e.message); }
  });
  var toggle = document.getElementById('toggle-findings');
  if (toggle) toggle.addEventListener('click', function () {
    var all = document.querySelectorAll('details.finding');
    var open = Array.prototype.some.call(all, function (d) { return !d.open; });
    all.forEach(function (d) { d.open = open; });
    toggle.textContent = open ? 'Collapse all' : 'Expand all';
  });
})();
`;
