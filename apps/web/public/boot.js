// Loaded before the app's modules (a classic script in index.html). Zod probes
// `new Function` when it builds an object schema, to decide whether to compile
// fast parsers; the app's Content Security Policy forbids eval, and the browser
// reports the probe as a violation even though zod catches the refusal. Zod reads
// this global config when it loads; jitless skips the probe.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
