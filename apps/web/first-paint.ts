import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '@atende/shared';
import { runnerImport, type Plugin } from 'vite';
import { STORAGE } from './src/api/storage-keys.js';
import type { Messages } from './src/i18n/pt.js';

/**
 * The first paint, before any JavaScript module has arrived: on a slow phone network the
 * entry and the first screen's chunks take seconds, and the page stayed blank until React
 * rendered. index.html now draws, from a few lines of inline script and CSS, what the first
 * screen will look like: the login card on `/login` without a stored session, the top bar with
 * the last greeting this browser showed on a signed-in page. React's first render replaces it
 * (createRoot clears the container), in the same place and the same words, so the page does
 * not change but for what only JavaScript brings (fields that take input, the bar's buttons,
 * the page under the bar).
 */

/** The words the login card of the first paint shows, per language: the login page's own texts. */
export type FirstPaintTexts = Record<Language, { appName: string; title: string; email: string; password: string; submit: string; language: string; languageName: string; forgot: string; signup: string }>;

export function firstPaintTexts(catalogues: Record<Language, Messages>): FirstPaintTexts {
  const texts = {} as FirstPaintTexts;
  for (const language of Object.keys(catalogues) as Language[]) {
    const catalogue = catalogues[language];
    texts[language] = {
      appName: catalogue.app.name,
      title: catalogue.login.title,
      email: catalogue.login.email,
      password: catalogue.login.password,
      submit: catalogue.login.submit,
      language: catalogue.login.language,
      languageName: catalogue.languages[language],
      forgot: catalogue.login.forgot,
      signup: catalogue.login.signup,
    };
  }
  return texts;
}


/**
 * The CSS of the first paint: MUI's measures of the login page and the top bar (theme.tsx:
 * radius 8, primary #1565c0 or #64b5f6 in dark mode; Roboto stack as the theme, no web font).
 */
const CSS = `
body{margin:0}
.fp{--fp-primary:#1565c0;--fp-bg:#fff;--fp-paper:#fff;--fp-text:rgba(0,0,0,.87);--fp-muted:rgba(0,0,0,.6);--fp-line:rgba(0,0,0,.23);--fp-bar:#1565c0;--fp-on-primary:#fff;
font-family:Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;letter-spacing:.00938em;color:var(--fp-text);background:var(--fp-bg);min-height:100vh;box-sizing:border-box;-webkit-font-smoothing:antialiased}
.fp.fp-dark{--fp-primary:#64b5f6;--fp-bg:#121212;--fp-paper:#222;--fp-text:#fff;--fp-muted:rgba(255,255,255,.7);--fp-line:rgba(255,255,255,.23);--fp-bar:#262626;--fp-on-primary:rgba(0,0,0,.87)}
.fp *{box-sizing:border-box}
.fp-main{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px}
.fp-card{width:100%;max-width:400px;padding:24px;background:var(--fp-paper);border-radius:8px;box-shadow:0 3px 3px -2px rgba(0,0,0,.2),0 3px 4px 0 rgba(0,0,0,.14),0 1px 8px 0 rgba(0,0,0,.12);display:flex;flex-direction:column;gap:16px}
@media (min-width:600px){.fp-card{padding:32px}}
.fp h1{margin:0;text-align:center;font-size:2.125rem;line-height:1.235;font-weight:700;letter-spacing:.00735em;color:var(--fp-primary)}
.fp h2{margin:0;text-align:center;font-size:1.25rem;line-height:1.6;font-weight:500;letter-spacing:.0075em}
.fp-field{position:relative;height:56px;border:1px solid var(--fp-line);border-radius:8px;padding:16px 13px;line-height:23px;color:var(--fp-muted)}
.fp-select{height:40px;padding:7.5px 13px;color:var(--fp-text)}
.fp-select span{position:absolute;top:-9px;left:8px;padding:0 5px;font-size:12px;line-height:17.25px;color:var(--fp-muted);background:var(--fp-paper)}
.fp-select svg{position:absolute;right:6px;top:7px;width:24px;height:24px;fill:var(--fp-muted)}
.fp-button{height:42.25px;border-radius:8px;background:var(--fp-primary);color:var(--fp-on-primary);text-align:center;padding:8px 22px;font-size:.9375rem;line-height:1.75;font-weight:500;letter-spacing:.02857em;text-transform:uppercase;box-shadow:0 3px 1px -2px rgba(0,0,0,.2),0 2px 2px 0 rgba(0,0,0,.14),0 1px 5px 0 rgba(0,0,0,.12)}
.fp-links{display:flex;justify-content:space-between;font-size:.875rem;line-height:1.43;letter-spacing:.01071em}
.fp-links span{color:var(--fp-primary);text-decoration:underline;text-decoration-color:color-mix(in srgb,var(--fp-primary) 40%,transparent)}
.fp-bar{position:fixed;top:0;left:0;right:0;height:48px;display:flex;align-items:center;gap:0;padding:0 8px;background:var(--fp-bar);color:#fff;box-shadow:0 2px 4px -1px rgba(0,0,0,.2),0 4px 5px 0 rgba(0,0,0,.14),0 1px 10px 0 rgba(0,0,0,.12)}
@media (min-width:600px){.fp-bar{padding:0 16px;gap:4px}}
.fp-bar svg{width:24px;height:24px;fill:currentColor;margin:0 6px 0 -6px;flex:none}
@media (min-width:600px){.fp-bar svg{margin:0 8px 0 -4px}}
.fp-bar p{margin:0;flex:1;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
`;

const ARROW = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 10l5 5 5-5z"/></svg>';
const MENU = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z"/></svg>';

/**
 * The inline script: which first paint this visit gets (the web app's own rules: `initialLanguage`,
 * `initialMode`, a stored token) and its markup in #root. Words from the catalogues go in as
 * markup (they are ours); the greeting, which holds names people typed, as text.
 */
export function firstPaintScript(texts: FirstPaintTexts): string {
  return `(function(){var painted=false,me=document.currentScript,entry=me&&me.getAttribute('data-entry');try{
var T=${JSON.stringify(texts).replace(/</g, '\\u003c')},s=localStorage,p=location.pathname,root=document.getElementById('root');
if(!root||root.firstChild)return;
var pick=function(v){v=(v||'').slice(0,2).toLowerCase();return T[v]?v:null};
var lang=pick(s.getItem('${STORAGE.language}'))||pick(navigator.language)||'pt',t=T[lang];
var mode=s.getItem('${STORAGE.theme}');var dark=mode==='dark'||(mode!=='light'&&window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches);
var signedIn=!!s.getItem('${STORAGE.token}'),greeting=s.getItem('${STORAGE.greeting}');
var el=document.createElement('div');el.className='fp'+(dark?' fp-dark':'');el.setAttribute('aria-hidden','true');el.setAttribute('data-first-paint','');
if(!signedIn&&p==='/login'){
el.innerHTML='<div class="fp-main"><div class="fp-card"><h1>'+t.appName+'</h1><h2>'+t.title+'</h2><div class="fp-field">'+t.email+'</div><div class="fp-field">'+t.password+'</div><div class="fp-button">'+t.submit+'</div><div class="fp-field fp-select"><span>'+t.language+'</span>'+t.languageName+'${ARROW}</div><div class="fp-links"><span>'+t.forgot+'</span><span>'+t.signup+'</span></div></div></div>';
}else if(signedIn&&greeting&&!/^\\/(login|signup|forgetpsw)$/.test(p)){
el.innerHTML='<div class="fp-bar">${MENU}<p></p></div>';el.querySelector('p').textContent=greeting;
}else return;
root.appendChild(el);painted=true;
}catch(e){}finally{
if(entry){var started=false,start=function(){if(started)return;started=true;var m=document.createElement('script');m.type='module';m.crossOrigin='anonymous';m.src=entry;document.head.appendChild(m)};
if(painted&&document.visibilityState!=='hidden')requestAnimationFrame(function(){setTimeout(start,0)});else start();}
}})();`;
}

/** The catalogues, loaded through Vite (they import their feature texts without file extensions, which Node cannot resolve). */
async function loadCatalogues(root: string): Promise<Record<Language, Messages>> {
  const load = async (language: Language) => {
    const { module } = await runnerImport<Record<Language, Messages>>(path.join(root, `src/i18n/${language}.ts`), { configFile: false, logLevel: 'warn' });
    return module[language];
  };
  const [pt, en, es] = await Promise.all([load('pt'), load('en'), load('es')]);
  return { pt, en, es };
}

/**
 * The script goes out as a file of its own, named by its content under /assets/ (cached for a year
 * like the build's other files): the Content Security Policy refuses inline scripts. It is a classic
 * script after #root, so it runs as soon as the page is read, before the first paint; the CSS is
 * inline (the policy allows inline styles). It also starts the app: the entry, preloaded from the
 * head, is evaluated after the frame that shows the first paint (a module script would run first
 * on a busy phone, and its seconds of evaluation would hold that frame back), at once when there
 * is nothing to show or the tab is hidden (no frames there).
 */
export function firstPaint(): Plugin {
  let root = '';
  let script: Promise<{ fileName: string; source: string }> | null = null;
  const build = () =>
    (script ??= loadCatalogues(root).then((catalogues) => {
      // public/zod-jitless.js rides along: one script that blocks the page instead of two (dev keeps the file).
      const source = `${readFileSync(path.join(root, 'public/zod-jitless.js'), 'utf8')}\n${firstPaintScript(firstPaintTexts(catalogues))}`;
      return { source, fileName: `assets/first-paint-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js` };
    }));
  return {
    name: 'atende:first-paint',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const { fileName } = await build();
        // The entry goes from a module script to a preload: the first-paint script starts it once the page has painted.
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entryTag?.[1]) throw new Error('first-paint: no entry script in index.html');
        const zodTag = '<script src="/zod-jitless.js"></script>';
        if (!html.includes(zodTag)) throw new Error('first-paint: no zod-jitless script in index.html');
        return {
          html: html.replace(zodTag, '').replace(entryTag[0], `<link rel="modulepreload" crossorigin href="${entryTag[1]}">`),
          tags: [
            // Asked for first, before the entry's and the first screen's modules (the server adds their links at the end of <head>).
            { tag: 'link', attrs: { rel: 'preload', as: 'script', href: `/${fileName}` }, injectTo: 'head-prepend' },
            { tag: 'style', children: CSS.trim(), injectTo: 'head' },
            { tag: 'script', attrs: { src: `/${fileName}`, 'data-entry': entryTag[1] }, injectTo: 'body' },
          ],
        };
      },
    },
    async generateBundle() {
      const { fileName, source } = await build();
      this.emitFile({ type: 'asset', fileName, source });
    },
  };
}
