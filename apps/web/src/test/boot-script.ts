import { readFileSync } from 'node:fs';
import { BOOT_SCRIPT_FILE } from '../../inline-shell';

/** The source of boot.js, the classic script the shell runs (inline) before the app's modules. */
export const BOOT_SCRIPT = readFileSync(BOOT_SCRIPT_FILE, 'utf8');

/** Runs boot.js in this test's window (its storage, its stubbed `fetch`), as the shell does at load. */
export function runBootScript(): void {
  new Function(BOOT_SCRIPT)();
}
