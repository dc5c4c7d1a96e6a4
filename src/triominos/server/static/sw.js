// The service worker (served from /sw.js, so its scope is the whole site): the static
// files kept for a device that goes offline, the offline page for a page it cannot
// load, and the push notices of server/push.py.
//
// A classic worker, not a module one (not every browser starts those), so it cannot
// import i18n.js: a notice's text comes from the locale files like every other text,
// with its `{placeholders}` filled in by `fill`.

const CACHE = "triominos-1";
const OFFLINE_PAGE = "/static/offline.html";
const MANIFEST = "/manifest.webmanifest";
/** What the offline page needs; every other static file is kept as it is fetched. */
const OFFLINE_FILES = [OFFLINE_PAGE, MANIFEST, "/static/offline.js", "/static/dom.js", "/static/i18n.js", "/static/style.css", "/static/favicon.svg", "/static/locales/en.json"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

/** The network's answer, kept for later; the kept one when the network fails. */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_PAGE)));
  } else if (url.pathname.startsWith("/static/") || url.pathname === MANIFEST) {
    event.respondWith(networkFirst(request));
  }
});

/** A message's `{name}` placeholders filled from `params` (i18n.js's `format`, reduced). */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

async function messages(lang) {
  const code = /^[a-z]{2}$/.test(lang) ? lang : "en";
  try {
    return (await networkFirst(new Request(`/static/locales/${code}.json`))).json();
  } catch {
    return (await caches.match("/static/locales/en.json"))?.json() ?? {};
  }
}

self.addEventListener("push", (event) => {
  event.waitUntil(
    (async () => {
      const notice = event.data?.json() ?? {};
      const texts = await messages(notice.lang);
      // A your_turn that says the hours left is a game over days' reminder.
      const key = notice.hours_left ? "push_reminder" : `push_${notice.kind}`;
      const body = texts[key] ?? texts.push_your_turn ?? "";
      await self.registration.showNotification(texts.title ?? "Triominos", {
        body: fill(body, { name: notice.to_move ?? "", hours: notice.hours_left ?? "", from: notice.from ?? "", code: notice.code ?? "" }),
        icon: "/static/icons/app-192.png",
        badge: "/static/favicon.svg",
        tag: `${notice.code}:${notice.kind}`,
        renotify: true,
        data: { url: notice.url ?? "/" },
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => client.url.split("#")[0] === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    })(),
  );
});
