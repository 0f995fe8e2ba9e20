import type { ChildProcess } from 'node:child_process';

/** The address a started server prints in its banner ("Atende is running: http://..."); rejects if the server exits first. */
export function bannerUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running: (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}
