import { describe, expect, it } from 'vitest';
import { userSearchTerm } from './transfer-dialog';
import { buildSendPayload } from './use-send-message';

describe('send payload', () => {
  it('sends text as JSON with the quoted message and the sign flag', () => {
    expect(buildSendPayload({ body: 'Oi', files: [], quotedMsgId: 7, sign: true })).toEqual({ body: 'Oi', sign: true, quotedMsg: { id: 7 } });
    expect(buildSendPayload({ body: 'Oi', files: [], quotedMsgId: null, sign: false })).toEqual({ body: 'Oi', sign: false });
  });

  it('sends files as multipart medias with the file name as body', () => {
    const files = [new File(['a'], 'a.pdf', { type: 'application/pdf' }), new File(['b'], 'b.png', { type: 'image/png' })];
    const form = buildSendPayload({ body: '', files, quotedMsgId: 3, sign: true }) as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.getAll('medias').map((f) => (f as File).name)).toEqual(['a.pdf', 'b.png']);
    expect(form.getAll('body')).toEqual(['a.pdf', 'b.png']);
    expect(form.get('sign')).toBe('true');
    expect(form.get('quotedMsgId')).toBe('3');
  });

  it('sends a typed caption once instead of the file names', () => {
    const form = buildSendPayload({ body: ' Segue o contrato ', files: [new File(['a'], 'a.pdf')], quotedMsgId: null, sign: false }) as FormData;
    expect(form.getAll('body')).toEqual(['Segue o contrato']);
    expect(form.get('quotedMsgId')).toBeNull();
  });
});

describe('transfer user search', () => {
  it('starts at 3 characters', () => {
    expect(userSearchTerm('an')).toBe('');
    expect(userSearchTerm(' ana ')).toBe('ana');
  });
});
