var EXTENDED_SCENARIOS = ['slow-instance', 'hot-key', 'regional-outage'];
(function (q, l) {
  var lb = q.get('lb');
  if (q.get('engine') == 'requests' || /^[23]$/.test(q.get('regions')) || lb && lb != 'least-request' ||
      EXTENDED_SCENARIOS.indexOf(q.get('scenario')) >= 0 || /(^#|&)exercise=/.test(l.hash)) {
    l.replace('full.html' + l.search + l.hash);
  }
})(new URLSearchParams(location.search), location);
