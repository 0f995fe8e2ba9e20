const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const GENERATED_TOKEN_LENGTH = 32;
/** The largest multiple of the alphabet's size that fits a byte: bytes above it are dropped so no character is likelier. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export type RandomBytes = (count: number) => Uint8Array;

const cryptoBytes: RandomBytes = (count) => crypto.getRandomValues(new Uint8Array(count));

/**
 * A bearer token for the external API (spec part 2 §2.14): 32 letters and
 * digits from the browser's cryptographic generator, so it cannot be guessed
 * and needs no escaping in a header or a shell command.
 */
export function generateConnectionToken(randomBytes: RandomBytes = cryptoBytes): string {
  let token = '';
  while (token.length < GENERATED_TOKEN_LENGTH) {
    for (const byte of randomBytes(GENERATED_TOKEN_LENGTH * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      token += ALPHABET[byte % ALPHABET.length];
      if (token.length === GENERATED_TOKEN_LENGTH) break;
    }
  }
  return token;
}
