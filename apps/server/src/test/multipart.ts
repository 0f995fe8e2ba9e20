/** A form field: text, or a file with its name and type. */
export type FormField = string | { fileName: string; mimeType: string; data: Buffer };

/** A multipart/form-data body with these fields, in order, for `app.inject`. */
export function multipartForm(fields: Record<string, FormField>) {
  const boundary = `----atende${Date.now()}${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    typeof value === 'string'
      ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      : Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.fileName}"\r\nContent-Type: ${value.mimeType}\r\n\r\n`),
          value.data,
          Buffer.from('\r\n'),
        ]),
  );
  const payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A multipart/form-data body with one file in the field `file`, for `app.inject`. */
export function multipart(fileName: string, mimeType: string, data: Buffer) {
  return multipartForm({ file: { fileName, mimeType, data } });
}
