import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http-client';
import { buildExternalSendRequest, MediaTestForm, sendExternalMessage, TextTestForm } from './external-send';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('external API request', () => {
  it('sends text as JSON {number, body} with the connection token as bearer', () => {
    const { url, init } = buildExternalSendRequest({ token: ' tok-123 ', number: '5511999990000', body: 'Olá' });
    expect(url).toBe('/api/messages/send');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ accept: 'application/json', authorization: 'Bearer tok-123', 'content-type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ number: '5511999990000', body: 'Olá' });
  });

  it('sends files as multipart: number, the caption as body, each file in medias, and no content type of its own', () => {
    const files = [new File(['a'], 'a.pdf', { type: 'application/pdf' }), new File(['b'], 'b.png', { type: 'image/png' })];
    const { init } = buildExternalSendRequest({ token: 'tok', number: '5511999990000', body: ' Segue ', files });
    const form = init.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('number')).toBe('5511999990000');
    expect(form.getAll('body')).toEqual(['Segue']);
    expect(form.getAll('medias').map((file) => (file as File).name)).toEqual(['a.pdf', 'b.png']);
    // The browser must add the multipart boundary itself.
    expect(init.headers).toEqual({ accept: 'application/json', authorization: 'Bearer tok' });
  });

  it('leaves the body out of a multipart send without a caption', () => {
    const { init } = buildExternalSendRequest({ token: 'tok', number: '5511999990000', body: '  ', files: [new File(['a'], 'a.pdf')] });
    expect((init.body as FormData).has('body')).toBe(false);
  });

  it('answers the API result and sends no cookies (the token alone is the credential)', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(200, { message: 'Message sent.', ticketId: 9, messageIds: [31] }));
    const result = await sendExternalMessage({ token: 'tok', number: '5511999990000', body: 'Oi' }, fetchImpl);
    expect(result).toEqual({ message: 'Message sent.', ticketId: 9, messageIds: [31] });
    expect(fetchImpl).toHaveBeenCalledWith('/api/messages/send', expect.objectContaining({ method: 'POST', credentials: 'omit' }));
  });

  it('turns a refusal into an ApiError carrying the error code', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(401, { error: 'ERR_INVALID_API_TOKEN' }));
    const failure = await sendExternalMessage({ token: 'bad', number: '5511999990000', body: 'Oi' }, fetchImpl).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, code: 'ERR_INVALID_API_TOKEN' });
  });

  it('keeps a non-JSON failure readable', async () => {
    const fetchImpl = vi.fn(async () => new Response('Bad Gateway', { status: 502, statusText: 'Bad Gateway' }));
    await expect(sendExternalMessage({ token: 'tok', number: '5511999990000', body: 'Oi' }, fetchImpl)).rejects.toMatchObject({ status: 502, code: undefined, message: 'Bad Gateway' });
  });
});

describe('test forms (spec part 2 §5: token, number and body or file required)', () => {
  it('requires token, number and body for text', () => {
    const result = TextTestForm.safeParse({ token: ' ', number: '', body: '  ' });
    expect(result.success).toBe(false);
    // The first message of each field is the one shown.
    const issues: Record<string, string> = {};
    for (const issue of result.error?.issues ?? []) issues[issue.path.join('.')] ??= issue.message;
    expect(issues).toEqual({ token: 'validation.required', number: 'validation.required', body: 'validation.required' });
  });

  it('strips a mask from the number and checks its length', () => {
    expect(TextTestForm.parse({ token: 'tok', number: '+55 (11) 99999-0000', body: 'Oi' })).toEqual({ token: 'tok', number: '5511999990000', body: 'Oi' });
    expect(TextTestForm.safeParse({ token: 'tok', number: '1234', body: 'Oi' }).error?.issues[0]?.message).toBe('validation.phoneTooShort');
  });

  it('requires a file for media, the caption being optional', () => {
    const missing = MediaTestForm.safeParse({ token: 'tok', number: '5511999990000', body: '' });
    expect(missing.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['file', 'validation.required']]);
    const file = new File(['a'], 'a.pdf');
    expect(MediaTestForm.parse({ token: 'tok', number: '5511999990000', body: '', file })).toEqual({ token: 'tok', number: '5511999990000', body: '', file });
  });
});
