// The console's service worker: after a first visit the console works without a network.
//
// scripts/precache.mjs writes this file into each build with the build's version and the list
// of its files (Trunk's hashed names, the .wasm modules included): VERSION and FILES below
// are placeholders here. Installing caches every file of the build in a cache of its own, or
// nothing (one failed download fails the install, and the build before keeps serving); a
// page is then always answered from one build's cache, never a mix of two. A new build is a
// new sw.js, which the browser notices when a page of the console is opened: it installs in
// the background and takes over at once; the next page opened is the new build, whole. The
// cache of the build before is kept (a page still open on it loads its hashed modules from
// there) until a third build comes.

const VERSION = 'development';
const FILES = [];
const PREFIX = 'oncall-sim-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `reload`: straight from the server, never an older build's file from the HTTP cache.
      await cache.addAll(FILES.map((file) => new Request(file, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const others = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== CACHE);
      // caches.keys() lists in the order of creation: the last is the build before this one.
      await Promise.all(others.slice(0, -1).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(answer(request, url));
});

/** A page from this build's cache, whatever its query (the run is in the link); any other
 *  file from this build's cache, then from the build before (a page still open on it), then
 *  from the network. */
async function answer(request, url) {
  const cache = await caches.open(CACHE);
  if (request.mode === 'navigate') {
    const path = url.pathname.endsWith('/') ? url.pathname + 'index.html' : url.pathname;
    const page = await cache.match(new URL(path, url.origin).href);
    return page ?? fetch(request);
  }
  const hit = (await cache.match(request)) ?? (await caches.match(request));
  return hit ?? fetch(request);
}
