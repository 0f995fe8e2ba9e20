// After `vite build`: a brotli (.br) and a gzip (.gz) copy of every compressible file
// of dist/ from 1 kB up, which the server sends instead of the file to browsers that
// accept them (@fastify/static's preCompressed). Compressed once here, at the highest
// levels, instead of on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.ico']);
const MIN_BYTES = 1024;

/** Writes the .br and .gz of each compressible file under `dir`; answers the bytes before and after brotli. */
export function precompress(dir) {
  let raw = 0;
  let brotli = 0;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(entry));
    if (!statSync(file).isFile() || !COMPRESSIBLE.has(path.extname(file)) || statSync(file).size < MIN_BYTES) continue;
    const content = readFileSync(file);
    const br = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    raw += content.length;
    brotli += br.length;
  }
  return { raw, brotli };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { raw, brotli } = precompress(path.resolve(import.meta.dirname, '../dist'));
  console.log(`precompressed: ${(raw / 1024).toFixed(0)} kB of files, ${(brotli / 1024).toFixed(0)} kB as brotli`);
}
