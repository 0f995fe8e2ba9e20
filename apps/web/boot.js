// What must run before the app's modules: a classic script the build puts inline in
// index.html (inline-shell.ts), which the Content Security Policy admits by its hash.
//
// Zod probes `new Function` when it builds an object schema, to decide whether to compile
// fast parsers; the app's Content Security Policy forbids eval, and the browser reports the
// probe as a violation even though zod catches the refusal. Zod reads this global config
// when it loads; jitless skips the probe.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });

// A stored session's `GET /auth/me` starts here, while the modules download, rather than once
// they have run: src/api/session.tsx (`prefetchSessionUser`) takes this answer. The key is
// STORAGE.token of src/api/storage-keys.ts (boot-script.test.ts checks it).
(function () {
  try {
    var token = localStorage.getItem('token');
    if (token) {
      globalThis.__atendeSessionUser = fetch('/auth/me', { headers: { accept: 'application/json', authorization: 'Bearer ' + token }, credentials: 'include' });
    }
  } catch {
    // No storage (a private mode that refuses it): the app asks itself.
  }
})();

// A browser's first date or number formatter loads the locale data of the Intl API: 15 to 35 ms
// of main thread on a desktop, four times that on a phone, paid inside whichever task formats
// first (the entry's evaluation, the first render). One formatter made here, in a task of its
// own while the modules download, pays it when the main thread has nothing else to do.
setTimeout(function () {
  try {
    Intl.DateTimeFormat().resolvedOptions();
  } catch {
    // No Intl: the app's own formatters say so where they are used.
  }
}, 0);
