// Draws the installable app's icons (manifest.webmanifest) from the favicon, with sharp:
// `node apps/web/scripts/icons/make-icons.mjs`. The PNGs are committed; run it again when the logo changes.
// The maskable icon keeps the logo inside the safe zone (the inner 80%) on the brand colour.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const web = path.resolve(import.meta.dirname, '../..');
const svg = readFileSync(path.join(web, 'public/favicon.svg'));
const out = (name) => path.join(web, 'public/icons', name);

for (const size of [192, 512]) {
  await sharp(svg, { density: (72 * size) / 64 }).resize(size, size).png({ compressionLevel: 9 }).toFile(out(`icon-${size}.png`));
  const inner = Math.round(size * 0.7);
  const logo = await sharp(svg, { density: (72 * inner) / 64 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: '#1565c0' } })
    .composite([{ input: logo, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(out(`maskable-${size}.png`));
}
console.log('icons written to public/icons');
