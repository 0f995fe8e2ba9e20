/**
 * The API reference page (`GET /api-docs`): a small viewer of `/openapi.json`, written
 * here rather than taken from a package (no CDN, nothing to download, about 7 kB), and
 * served by the server only on this route, so the web app's bundle never carries it.
 * Its script and style are files of their own (`/api-docs/viewer.js`, `/api-docs/viewer.css`),
 * as the content security policy allows (`script-src 'self'`, no inline script).
 * Plain JavaScript in strings: the browser runs it as it is.
 */

export const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atende API reference</title>
<link rel="stylesheet" href="/api-docs/viewer.css">
<script src="/api-docs/viewer.js" defer></script>
</head>
<body>
<header>
<h1>Atende API reference</h1>
<p>The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<input id="filter" type="search" placeholder="Filter by path, tag or summary" aria-label="Filter operations">
</header>
<main id="content"><p>Loading…</p></main>
</body>
</html>
`;

export const VIEWER_CSS = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #fafafa; }
header { padding: 16px 24px; background: #fff; border-bottom: 1px solid #ddd; position: sticky; top: 0; }
header h1 { margin: 0 0 4px; font-size: 22px; }
#filter { width: 100%; max-width: 480px; padding: 6px 8px; font: inherit; }
main { padding: 8px 24px 48px; max-width: 1100px; }
h2 { margin: 28px 0 8px; font-size: 18px; border-bottom: 1px solid #ddd; }
details.op { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 6px 0; }
details.op > summary { cursor: pointer; padding: 8px 10px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.method { font-weight: 700; font-family: ui-monospace, monospace; min-width: 60px; }
.m-get { color: #0b6bcb; } .m-post { color: #1a7f37; } .m-put { color: #9a6700; } .m-delete { color: #cf222e; }
.path { font-family: ui-monospace, monospace; word-break: break-all; }
.role { font-size: 12px; padding: 0 6px; border-radius: 10px; background: #eef; }
.summary { color: #555; }
.body { padding: 4px 14px 12px; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 10px; }
td, th { border: 1px solid #e2e2e2; padding: 4px 6px; text-align: left; vertical-align: top; font-size: 14px; }
pre { background: #f4f4f4; padding: 8px; overflow-x: auto; font-size: 13px; margin: 4px 0; }
h4 { margin: 10px 0 4px; }
a.ref { font-family: ui-monospace, monospace; }
`;

export const VIEWER_SCRIPT = `'use strict';
(function () {
  var content = document.getElementById('content');
  var filter = document.getElementById('filter');
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    (children || []).forEach(function (child) { node.append(child); });
    return node;
  }
  function schemaBlock(schema) {
    var pre = el('pre');
    var text = JSON.stringify(schema, null, 2);
    var parts = text.split(/("#\\/components\\/schemas\\/[A-Za-z0-9_]+")/);
    parts.forEach(function (part) {
      var match = /^"#\\/components\\/schemas\\/([A-Za-z0-9_]+)"$/.exec(part);
      if (match) pre.append(el('a', { class: 'ref', href: '#schema-' + match[1] }, [part]));
      else pre.append(part);
    });
    return pre;
  }
  function operation(path, method, op) {
    var summary = el('summary', {}, [
      el('span', { class: 'method m-' + method }, [method.toUpperCase()]),
      el('span', { class: 'path' }, [path]),
      el('span', { class: 'role' }, [op['x-role'] || '']),
      el('span', { class: 'summary' }, [op.summary || '']),
    ]);
    var body = el('div', { class: 'body' }, [el('p', {}, [op.description || ''])]);
    if (op.parameters && op.parameters.length) {
      var rows = op.parameters.map(function (p) {
        return el('tr', {}, [el('td', {}, [p.name]), el('td', {}, [p.in]), el('td', {}, [p.required ? 'yes' : 'no']), el('td', {}, [schemaBlock(p.schema)])]);
      });
      body.append(el('h4', {}, ['Parameters']), el('table', {}, [el('tr', {}, [el('th', {}, ['name']), el('th', {}, ['in']), el('th', {}, ['required']), el('th', {}, ['schema'])])].concat(rows)));
    }
    if (op.requestBody) {
      body.append(el('h4', {}, ['Body']));
      Object.keys(op.requestBody.content).forEach(function (type) {
        body.append(el('div', {}, [type]), schemaBlock(op.requestBody.content[type].schema));
      });
    }
    body.append(el('h4', {}, ['Answers']));
    Object.keys(op.responses).forEach(function (status) {
      var response = op.responses[status];
      var media = response.content && response.content['application/json'];
      body.append(el('div', {}, [el('strong', {}, [status]), ' ', response.description]));
      if (media && media.schema) body.append(schemaBlock(media.schema));
    });
    var details = el('details', { class: 'op' }, [summary, body]);
    details.dataset.search = (method + ' ' + path + ' ' + (op.tags || []).join(' ') + ' ' + (op.summary || '')).toLowerCase();
    return details;
  }
  function render(doc) {
    content.textContent = '';
    content.append(el('p', {}, [doc.info.description]));
    var schemes = doc.components.securitySchemes || {};
    content.append(el('h2', {}, ['Authentication']));
    Object.keys(schemes).forEach(function (name) {
      content.append(el('p', {}, [el('strong', {}, [name]), ': ' + (schemes[name].description || schemes[name].scheme)]));
    });
    var byTag = {};
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        var op = doc.paths[path][method];
        var tag = (op.tags && op.tags[0]) || 'other';
        (byTag[tag] = byTag[tag] || []).push(operation(path, method, op));
      });
    });
    Object.keys(byTag).sort().forEach(function (tag) {
      var section = el('section', { class: 'tag' }, [el('h2', { id: 'tag-' + tag }, [tag])].concat(byTag[tag]));
      content.append(section);
    });
    content.append(el('h2', {}, ['Schemas']));
    Object.keys(doc.components.schemas).sort().forEach(function (name) {
      content.append(el('h4', { id: 'schema-' + name }, [name]), schemaBlock(doc.components.schemas[name]));
    });
  }
  filter.addEventListener('input', function () {
    var words = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    document.querySelectorAll('details.op').forEach(function (node) {
      node.hidden = !words.every(function (word) { return node.dataset.search.indexOf(word) >= 0; });
    });
    document.querySelectorAll('section.tag').forEach(function (section) {
      section.hidden = section.querySelectorAll('details.op:not([hidden])').length === 0;
    });
  });
  fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then(function (response) { return response.json(); })
    .then(render)
    .catch(function (error) { content.textContent = 'The document could not be loaded: ' + error; });
})();
`;
