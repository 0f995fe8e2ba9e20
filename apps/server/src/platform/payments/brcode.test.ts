import { describe, expect, it } from 'vitest';
import { buildPixBrCode, crc16, formatPixAmount, normalizeBrCodeText, parseBrCode, parsePixAmount, type ParsedBrCode } from './brcode.js';

/** An independent CRC16/CCITT-FALSE: one bit at a time, the message as a bit stream. */
function referenceCrc(text: string): string {
  let register = 0xffff;
  for (const char of text) {
    const code = char.charCodeAt(0);
    for (let bit = 7; bit >= 0; bit--) {
      const inBit = (code >> bit) & 1;
      const topBit = (register >> 15) & 1;
      register = (register << 1) & 0xffff;
      if (inBit !== topBit) register ^= 0x1021;
    }
  }
  return register.toString(16).toUpperCase().padStart(4, '0');
}

function parsed(code: string): ParsedBrCode {
  const result = parseBrCode(code);
  if (!result.ok) throw new Error(`expected a valid BR Code: ${result.error}`);
  return result;
}

function expectRejected(code: string, error: RegExp): void {
  const result = parseBrCode(code);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error).toMatch(error);
}

/** Replaces the CRC of `body` (a payload up to and including "6304") with the right one. */
const withCrc = (body: string): string => body + referenceCrc(body);

// Published examples (facts, from public pages describing the BR Code):
// a dynamic code, from a gist that annotates the manual's examples (github.com/matheusb-comp, "Exemplos de formato PIX");
const PUBLISHED_DYNAMIC =
  '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB';
// a static code with amount and txid, from the PixPayloadGen package's README on PyPI.
const PUBLISHED_STATIC =
  '00020126330014BR.GOV.BCB.PIX011197212482404520400005303986540530.005802BR5918Victor Julio Rocha6006RECIFE62110507VIPSURF630425A1';

describe('crc16', () => {
  it('is CRC16/CCITT-FALSE: the standard check value and an independent bitwise computation', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
    for (const text of ['6304', '000201', 'Pix copia e cola 0123456789', PUBLISHED_STATIC.slice(0, -4)]) {
      expect(crc16(text)).toBe(referenceCrc(text));
    }
  });

  it('gives the CRC values published with example payloads', () => {
    expect(crc16(PUBLISHED_DYNAMIC.slice(0, -4))).toBe('EEAB');
    expect(crc16(PUBLISHED_STATIC.slice(0, -4))).toBe('25A1');
  });
});

describe('Pix amounts', () => {
  it('converts cents to the wire format and back without floating point', () => {
    expect(formatPixAmount(1)).toBe('0.01');
    expect(formatPixAmount(10)).toBe('0.10');
    expect(formatPixAmount(1000)).toBe('10.00');
    expect(formatPixAmount(123456789012)).toBe('1234567890.12');
    expect(parsePixAmount('0.29')).toBe(29);
    expect(parsePixAmount('1.15')).toBe(115);
    expect(parsePixAmount('10.00')).toBe(1000);
    expect(parsePixAmount('1234567890.12')).toBe(123456789012);
    for (let cents = 0; cents < 2000; cents += 7) expect(parsePixAmount(formatPixAmount(cents))).toBe(cents);
  });

  it('refuses malformed amounts', () => {
    for (const value of ['10', '10.0', '10.000', '-1.00', '1,00', ' 1.00', '1e2', '12345678901.00', '']) expect(parsePixAmount(value)).toBeNull();
    expect(() => formatPixAmount(1.5)).toThrow(RangeError);
    expect(() => formatPixAmount(-1)).toThrow(RangeError);
  });
});

describe('normalizeBrCodeText', () => {
  it('strips accents, uppercases and cuts to the maximum', () => {
    expect(normalizeBrCodeText('São Paulo', 15)).toBe('SAO PAULO');
    expect(normalizeBrCodeText('  Açaí   da\tJoão ', 25)).toBe('ACAI DA JOAO');
    expect(normalizeBrCodeText('Florianópolis do Sul Grande', 15)).toBe('FLORIANOPOLIS D');
    expect(normalizeBrCodeText('Empresa 😀 Ltda', 25)).toBe('EMPRESA LTDA');
  });
});

describe('buildPixBrCode', () => {
  it('builds a static code with key, amount and txid, field by field', () => {
    const code = buildPixBrCode({ key: 'fulano@example.com', merchantName: 'Fulano de Tal', merchantCity: 'Brasília', amountCents: 1050, txid: 'Fatura123' });
    const body =
      '000201' +
      '2640' + '0014br.gov.bcb.pix' + '0118fulano@example.com' +
      '52040000' +
      '5303986' +
      '540510.50' +
      '5802BR' +
      '5913FULANO DE TAL' +
      '6008BRASILIA' +
      '6213' + '0509Fatura123' +
      '6304';
    expect(code).toBe(body + referenceCrc(body));

    const result = parsed(code);
    expect(result.key).toBe('fulano@example.com');
    expect(result.url).toBeNull();
    expect(result.amountCents).toBe(1050);
    expect(result.txid).toBe('Fatura123');
    expect(result.merchantName).toBe('FULANO DE TAL');
    expect(result.merchantCity).toBe('BRASILIA');
    expect(result.singleUse).toBe(false);
    expect(result.fields.get('52')).toBe('0000');
    expect(result.merchantAccount.get('00')).toBe('br.gov.bcb.pix');
  });

  it('builds a dynamic code: URL without scheme, single use, txid ***', () => {
    const code = buildPixBrCode({ url: 'https://psp.example.com/v2/loc/42', merchantName: 'Minha Loja', merchantCity: 'Recife', singleUse: true });
    expect(code.startsWith('000201010212')).toBe(true);
    const result = parsed(code);
    expect(result.url).toBe('psp.example.com/v2/loc/42');
    expect(result.key).toBeNull();
    expect(result.txid).toBe('***');
    expect(result.amountCents).toBeNull();
    expect(result.singleUse).toBe(true);
  });

  it('cuts long names and cities to the field maximums', () => {
    const result = parsed(buildPixBrCode({ key: '12345678900', merchantName: 'Associação Brasileira de Exemplos Fictícios', merchantCity: 'São José dos Campos do Norte' }));
    expect(result.merchantName).toBe('ASSOCIACAO BRASILEIRA DE');
    expect(result.merchantName.length).toBeLessThanOrEqual(25);
    expect(result.merchantCity).toBe('SAO JOSE DOS CA');
  });

  it('refuses inputs that cannot make a valid code', () => {
    const base = { merchantName: 'Loja', merchantCity: 'Recife' };
    expect(() => buildPixBrCode(base)).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k', url: 'x.example/1' })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k'.repeat(78) })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k', txid: 'has-dash' })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k', txid: 'a'.repeat(26) })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k', amountCents: 0 })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...base, key: 'k', amountCents: 10.5 })).toThrow(RangeError);
    expect(() => buildPixBrCode({ key: 'k', merchantName: '😀', merchantCity: 'Recife' })).toThrow(RangeError);
  });
});

describe('parseBrCode', () => {
  it('accepts published examples', () => {
    const dynamic = parsed(PUBLISHED_DYNAMIC);
    expect(dynamic.url).toBe('pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99');
    expect(dynamic.singleUse).toBe(true);
    expect(dynamic.merchantCity).toBe('SAO PAULO');

    const fixed = parsed(PUBLISHED_STATIC);
    expect(fixed.key).toBe('97212482404');
    expect(fixed.amountCents).toBe(3000);
    expect(fixed.txid).toBe('VIPSURF');
    expect(fixed.merchantName).toBe('Victor Julio Rocha');
  });

  it('rejects a wrong CRC, and a lowercase one', () => {
    expectRejected(PUBLISHED_STATIC.slice(0, -4) + '25A2', /CRC mismatch/);
    expectRejected(PUBLISHED_DYNAMIC.slice(0, -4) + 'eeab', /uppercase hex/);
    // One character of the payload changed, CRC kept.
    expectRejected(PUBLISHED_STATIC.replace('RECIFE', 'RECIFA'), /CRC mismatch/);
  });

  it('rejects lengths that do not match and malformed ids or lengths', () => {
    expectRejected(withCrc(PUBLISHED_STATIC.slice(0, -4).replace('5918Victor', '5919Victor')), /field|declares/);
    expectRejected(PUBLISHED_STATIC.slice(0, -2), /declares|63/);
    expectRejected(withCrc('0002012X'), /id/);
    expectRejected(withCrc('00020126x4'), /length/);
    expectRejected(withCrc('000201' + '5200' + '6304'), /empty/);
  });

  it('requires 00 first and 63 last', () => {
    const body = PUBLISHED_STATIC.slice(0, -4);
    expectRejected(withCrc('52040000' + body.replace('52040000', '')), /field 00/);
    expectRejected(withCrc(body.replace('000201', '000202')), /field 00/);
    const crc = referenceCrc(body);
    expectRejected(body + crc + '5802BR', /last|twice/);
  });

  /** A payload from top-level fields, each written with its length; CRC appended. */
  const payload = (...fields: string[]): string => withCrc(fields.join('') + '6304');
  const t = (id: string, value: string): string => id + String(value.length).padStart(2, '0') + value;
  const tail = [t('52', '0000'), t('53', '986'), t('58', 'BR'), t('59', 'LOJA'), t('60', 'RECIFE'), t('62', t('05', '***'))];

  it('rejects a merchant account without the Pix GUI, or with neither or both of key and URL', () => {
    expect(parseBrCode(payload(t('00', '01'), t('26', t('00', 'br.gov.bcb.pix') + t('01', 'abc')), ...tail)).ok).toBe(true);
    expectRejected(payload(t('00', '01'), t('26', t('00', 'BR.GOV.BCB.PIY') + t('01', 'abc')), ...tail), /GUI/);
    expectRejected(payload(t('00', '01'), t('26', t('01', 'abc')), ...tail), /GUI/);
    expectRejected(payload(t('00', '01'), ...tail), /field 26/);
    expectRejected(payload(t('00', '01'), t('26', t('00', 'br.gov.bcb.pix')), ...tail), /key \(01\) or a location URL/);
    expectRejected(payload(t('00', '01'), t('26', t('00', 'br.gov.bcb.pix') + t('01', 'abc') + t('25', 'x.io/a')), ...tail), /either/);
    expectRejected(payload(t('00', '01'), t('26', t('00', 'br.gov.bcb.pix') + t('25', 'https://x.io/a')), ...tail), /without scheme/);
    expectRejected(payload(t('00', '01'), t('26', t('00', 'br.gov.bcb.pix') + '01xxabc'), ...tail), /field 26/);
  });

  it('checks the fixed fields and value formats', () => {
    const code = (changes: Partial<Record<'01' | '52' | '53' | '54' | '58' | '59' | '60' | '62', string>>): string => {
      const value = (id: '52' | '53' | '58' | '59' | '60', fallback: string): string => t(id, changes[id] ?? fallback);
      return payload(
        t('00', '01'),
        changes['01'] === undefined ? '' : t('01', changes['01']),
        t('26', t('00', 'br.gov.bcb.pix') + t('01', 'abc')),
        value('52', '0000'),
        value('53', '986'),
        changes['54'] === undefined ? '' : t('54', changes['54']),
        value('58', 'BR'),
        value('59', 'LOJA'),
        value('60', 'RECIFE'),
        t('62', changes['62'] ?? t('05', '***')),
      );
    };
    expect(parseBrCode(code({})).ok).toBe(true);
    expect(parseBrCode(code({ '54': '10.00', '01': '12' })).ok).toBe(true);
    expect(parseBrCode(code({ '54': '1234567890.12' })).ok).toBe(true);
    expectRejected(code({ '52': '5411' }), /field 52/);
    expectRejected(code({ '53': '840' }), /field 53/);
    expectRejected(code({ '54': '10.0' }), /field 54/);
    expectRejected(code({ '54': '10,00' }), /field 54/);
    expectRejected(code({ '54': '12345678901.00' }), /field 54/);
    expectRejected(code({ '58': 'US' }), /field 58/);
    expectRejected(code({ '59': 'A'.repeat(26) }), /field 59/);
    expect(parseBrCode(code({ '59': 'A'.repeat(25) })).ok).toBe(true);
    expectRejected(code({ '60': 'B'.repeat(16) }), /field 60/);
    expect(parseBrCode(code({ '60': 'B'.repeat(15) })).ok).toBe(true);
    expectRejected(code({ '62': t('05', 'a-b1') }), /txid/);
    expectRejected(code({ '62': t('05', 'a'.repeat(26)) }), /txid/);
    expect(parseBrCode(code({ '62': t('05', 'a'.repeat(25)) })).ok).toBe(true);
    expectRejected(code({ '62': t('07', 'abcd') }), /txid/);
    expectRejected(code({ '01': '13' }), /field 01/);
  });
});
