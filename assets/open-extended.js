// A link that needs the extended models (request engine, regions, the hash policies, the
// exercises built on them) goes to full.html at once, before index.html downloads its own
// module. The console makes the same decision from the core's rule (ShareState::needs_extended)
// for every other case; the scenario list below is checked against that rule by a test.
// A file rather than an inline script: the page's Content-Security-Policy allows scripts from
// the site only.
(function () {
  var EXTENDED_SCENARIOS = ['slow-instance', 'hot-key', 'regional-outage'];
  var q = new URLSearchParams(location.search);
  var lb = q.get('lb');
  if (q.get('engine') === 'requests' || q.get('regions') === '2' || q.get('regions') === '3' ||
      (lb !== null && lb !== 'least-request') ||
      EXTENDED_SCENARIOS.indexOf(q.get('scenario')) >= 0) {
    var dir = location.pathname.replace(/[^/]*$/, '');
    location.replace(dir + 'full.html' + location.search + location.hash);
  }
})();
