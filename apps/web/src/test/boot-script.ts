import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The source of public/boot.js, the classic script the shell runs before the app's modules. */
export const BOOT_SCRIPT = readFileSync(path.resolve(import.meta.dirname, '../../public/boot.js'), 'utf8');

/** Runs public/boot.js in this test's window (its storage, its stubbed `fetch`), as the shell does at load. */
export function runBootScript(): void {
  new Function(BOOT_SCRIPT)();
}
