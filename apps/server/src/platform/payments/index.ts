/**
 * The Pix payment platform layer: the PaymentProvider interface, BR Code building and
 * validation, the provider for Efí's Pix API, and the local fake PSP.
 */
export type { CreatePixCharge, PaymentProvider, PixCharge, PixChargeStatus, PixNotification } from './payment-provider.js';
export {
  buildPixBrCode,
  crc16,
  formatPixAmount,
  normalizeBrCodeText,
  parseBrCode,
  parsePixAmount,
  PIX_GUI,
  type BrCodeParseResult,
  type BuildPixBrCode,
  type ParsedBrCode,
} from './brcode.js';
export { createEfiPixProvider, PaymentProviderError, type EfiPixProviderOptions, type EfiPixTlsOptions } from './efi-pix.provider.js';
export { registerFakePsp, type FakePsp, type FakePspOptions } from './fake-psp.js';
