/** Spec part 2 §5: attached file names have their spaces replaced by underscores. */
export function mediaFileName(name: string): string {
  return name.trim().replace(/\s+/g, '_');
}

/** The same file under the name the server should store. */
export function renamedForUpload(file: File): File {
  const name = mediaFileName(file.name);
  return name === file.name ? file : new File([file], name, { type: file.type, lastModified: file.lastModified });
}
