/**
 * Pix BR Code: the EMV QR Code "merchant-presented mode" payload that Banco Central do
 * Brasil's BR Code manual specifies, the text a payer's bank reads from a QR code or
 * from "Pix copia e cola". Builds static codes (a Pix key) and dynamic ones (a PSP's
 * location URL), and validates a code field by field, CRC included.
 *
 * A payload is a sequence of TLV fields: a 2-digit id, a 2-digit length, the value.
 * Fields 26 (merchant account) and 62 (additional data) hold TLV fields themselves.
 * Field 63, always last, is the CRC16/CCITT-FALSE of everything before its value
 * (its own "6304" included), as 4 uppercase hex digits.
 *
 * Amounts on the wire (field 54 here, `valor` in the Pix API) are decimal strings with
 * two places; `formatPixAmount` and `parsePixAmount` convert them to and from integer
 * cents without floating point.
 */

const PIX_GUI = 'br.gov.bcb.pix';

const MAX_NAME = 25;
const MAX_CITY = 15;
const MAX_TXID = 25;
const MAX_AMOUNT_CHARS = 13;
/** Field 26's value holds at most 99 characters; GUI and key/URL headers take 22 of them. */
const MAX_ACCOUNT_VALUE = 99 - 18 - 4;

const STATIC_TXID = /^[A-Za-z0-9]{1,25}$/;
const AMOUNT = /^\d{1,10}\.\d{2}$/;

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes, 4 uppercase hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Integer cents as the Pix wire format writes them: 1050 → "10.50". */
export function formatPixAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`amount must be a non-negative integer of cents, got ${cents}`);
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A wire amount ("10.50", at most 10 integer digits, exactly 2 decimals) as integer cents; null when malformed. */
export function parsePixAmount(value: string): number | null {
  if (!AMOUNT.test(value)) return null;
  const [units = '', decimals = ''] = value.split('.');
  return Number(units) * 100 + Number(decimals);
}

/** Strips accents and anything outside printable ASCII, uppercases, collapses spaces, cuts to `max` characters. */
export function normalizeBrCodeText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, max)
    .trimEnd();
}

function tlv(id: string, value: string): string {
  if (value.length < 1 || value.length > 99) throw new RangeError(`BR Code field ${id} must hold 1 to 99 characters, got ${value.length}`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

export interface BuildPixBrCode {
  /** A Pix key (static code). Exactly one of `key` and `url` is required. */
  key?: string;
  /** A PSP's location URL (dynamic code); a leading "https://" is removed, as the manual wants it without scheme. */
  url?: string;
  merchantName: string;
  merchantCity: string;
  amountCents?: number;
  /** Field 62/05: up to 25 [A-Za-z0-9]; '***' when absent (always '***' for dynamic codes). */
  txid?: string;
  /** Point of initiation 12 (the code may be paid once); dynamic codes usually set it. */
  singleUse?: boolean;
}

/** Builds a BR Code; throws RangeError on inputs that cannot make a valid one. */
export function buildPixBrCode(input: BuildPixBrCode): string {
  const { key, url } = input;
  if ((key === undefined) === (url === undefined)) throw new RangeError('a BR Code takes either a Pix key or a location URL');

  let account: string;
  if (key !== undefined) {
    if (key.length < 1 || key.length > MAX_ACCOUNT_VALUE) throw new RangeError('Pix key must hold 1 to 77 characters');
    account = tlv('01', key);
  } else {
    const location = (url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    if (location.length < 1 || location.length > MAX_ACCOUNT_VALUE) throw new RangeError('location URL must hold 1 to 77 characters');
    account = tlv('25', location);
  }

  const name = normalizeBrCodeText(input.merchantName, MAX_NAME);
  const city = normalizeBrCodeText(input.merchantCity, MAX_CITY);
  if (!name) throw new RangeError('merchant name is empty');
  if (!city) throw new RangeError('merchant city is empty');

  const txid = input.txid ?? '***';
  if (txid !== '***' && !STATIC_TXID.test(txid)) throw new RangeError('txid must be 1 to 25 characters [A-Za-z0-9]');

  let amount = '';
  if (input.amountCents !== undefined) {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('amount must be a positive integer of cents');
    amount = tlv('54', formatPixAmount(input.amountCents));
    if (amount.length - 4 > MAX_AMOUNT_CHARS) throw new RangeError('amount too large');
  }

  const payload =
    tlv('00', '01') +
    (input.singleUse ? tlv('01', '12') : '') +
    tlv('26', tlv('00', PIX_GUI) + account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    amount +
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', txid)) +
    '6304';
  return payload + crc16(payload);
}

export interface ParsedBrCode {
  ok: true;
  /** Top-level fields by id, in payload order. */
  fields: Map<string, string>;
  /** Field 26's subfields (00 GUI, 01 key, 25 URL, ...). */
  merchantAccount: Map<string, string>;
  /** Field 62's subfields (05 txid, ...). */
  additionalData: Map<string, string>;
  key: string | null;
  /** The location URL (field 26/25), without scheme; set on dynamic codes. */
  url: string | null;
  amountCents: number | null;
  txid: string;
  merchantName: string;
  merchantCity: string;
  /** Point of initiation (field 01) is '12'. */
  singleUse: boolean;
}

export type BrCodeParseResult = ParsedBrCode | { ok: false; error: string };

type TlvResult = { ok: true; fields: Map<string, string>; order: string[] } | { ok: false; error: string };

function readTlv(text: string, where: string): TlvResult {
  const fields = new Map<string, string>();
  const order: string[] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id)) return { ok: false, error: `${where}: field id at position ${at} is not 2 digits` };
    if (!/^\d{2}$/.test(lengthText)) return { ok: false, error: `${where}: field ${id} length is not 2 digits` };
    const length = Number(lengthText);
    if (length === 0) return { ok: false, error: `${where}: field ${id} is empty` };
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length) return { ok: false, error: `${where}: field ${id} declares ${length} characters, ${value.length} remain` };
    if (fields.has(id)) return { ok: false, error: `${where}: field ${id} appears twice` };
    fields.set(id, value);
    order.push(id);
    at += 4 + length;
  }
  return { ok: true, fields, order };
}

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Validates a BR Code for Pix: structure, mandatory fields, value formats and CRC. */
export function parseBrCode(code: string): BrCodeParseResult {
  const top = readTlv(code, 'payload');
  if (!top.ok) return top;
  const { fields, order } = top;

  if (order[0] !== '00' || fields.get('00') !== '01') return fail("field 00 (payload format) must come first and be '01'");
  if (order.at(-1) !== '63') return fail('field 63 (CRC) must come last');
  const crc = fields.get('63') ?? '';
  if (!/^[0-9A-F]{4}$/.test(crc)) return fail('field 63 must be 4 uppercase hex digits');
  const expected = crc16(code.slice(0, -4));
  if (crc !== expected) return fail(`CRC mismatch: code says ${crc}, payload gives ${expected}`);

  const initiation = fields.get('01');
  if (initiation !== undefined && initiation !== '11' && initiation !== '12') return fail("field 01 (point of initiation) must be '11' or '12'");

  const accountField = fields.get('26');
  if (accountField === undefined) return fail('field 26 (merchant account) is missing');
  const account = readTlv(accountField, 'field 26');
  if (!account.ok) return account;
  const merchantAccount = account.fields;
  if (merchantAccount.get('00')?.toLowerCase() !== PIX_GUI) return fail(`field 26 lacks the GUI ${PIX_GUI}`);
  const key = merchantAccount.get('01') ?? null;
  const url = merchantAccount.get('25') ?? null;
  if ((key === null) === (url === null)) return fail('field 26 must hold either a Pix key (01) or a location URL (25)');
  if (url !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return fail('field 26/25 must be a URL without scheme');

  if (fields.get('52') !== '0000') return fail("field 52 (merchant category) must be '0000'");
  if (fields.get('53') !== '986') return fail("field 53 (currency) must be '986'");

  let amountCents: number | null = null;
  const amount = fields.get('54');
  if (amount !== undefined) {
    amountCents = amount.length <= MAX_AMOUNT_CHARS ? parsePixAmount(amount) : null;
    if (amountCents === null) return fail('field 54 (amount) must be a decimal with 2 places, at most 13 characters');
  }

  if (fields.get('58') !== 'BR') return fail("field 58 (country) must be 'BR'");
  const merchantName = fields.get('59') ?? '';
  if (merchantName.length < 1 || merchantName.length > MAX_NAME) return fail('field 59 (merchant name) must hold 1 to 25 characters');
  const merchantCity = fields.get('60') ?? '';
  if (merchantCity.length < 1 || merchantCity.length > MAX_CITY) return fail('field 60 (merchant city) must hold 1 to 15 characters');

  const additionalField = fields.get('62');
  if (additionalField === undefined) return fail('field 62 (additional data) is missing');
  const additional = readTlv(additionalField, 'field 62');
  if (!additional.ok) return additional;
  const txid = additional.fields.get('05');
  if (txid === undefined || (txid !== '***' && !STATIC_TXID.test(txid))) {
    return fail(`field 62/05 (txid) must be '***' or 1 to ${MAX_TXID} characters [A-Za-z0-9]`);
  }

  return {
    ok: true,
    fields,
    merchantAccount,
    additionalData: additional.fields,
    key,
    url,
    amountCents,
    txid,
    merchantName,
    merchantCity,
    singleUse: initiation === '12',
  };
}
