(function () {
  var EXTENDED_SCENARIOS = ['slow-instance', 'hot-key', 'regional-outage'];
  var q = new URLSearchParams(location.search);
  var lb = q.get('lb');
  if (q.get('engine') === 'requests' || q.get('regions') === '2' || q.get('regions') === '3' ||
      (lb !== null && lb !== 'least-request') || EXTENDED_SCENARIOS.indexOf(q.get('scenario')) >= 0) {
    location.replace(location.pathname.replace(/[^/]*$/, '') + 'full.html' + location.search + location.hash);
  }
})();
