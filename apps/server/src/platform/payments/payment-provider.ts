/**
 * A payment service provider (PSP) that charges by Pix. The server always names the
 * amount from its own records (an invoice's value), never from a client.
 *
 * Status names are the Pix API's (BCB's API Pix, as Efí and other PSPs expose it):
 * ATIVA (waiting), CONCLUIDA (paid), REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP.
 */
export type PixChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface CreatePixCharge {
  /** Our id for the charge, 26 to 35 characters [a-zA-Z0-9] (the Pix API's txid rule). */
  txid: string;
  amountCents: number;
  expiresInSeconds: number;
  /** Shown to the payer by their bank (solicitacaoPagador), at most 140 characters. */
  description: string;
}

export interface PixCharge {
  txid: string;
  status: PixChargeStatus;
  /** The charge's amount as the PSP holds it, in integer cents. */
  amountCents: number;
  /** Amount paid (the Pix received for this charge, less their refunds done or under way), in integer cents; 0 while unpaid. */
  paidCents: number;
  /** The BR Code ("Pix copia e cola") the payer's bank reads; also what the QR code encodes. */
  copyPaste: string;
  createdAt: Date;
  expiresInSeconds: number;
}

export interface PaymentProvider {
  /** 'efi' for a real PSP in Efí's API shape; 'fake' when it points at the local fake PSP. */
  readonly kind: 'efi' | 'fake';
  createPixCharge(input: CreatePixCharge): Promise<PixCharge>;
  /** The charge as the PSP knows it now; null when the PSP does not know the txid. */
  getPixCharge(txid: string): Promise<PixCharge | null>;
  /** Tells the PSP where to deliver payment notifications (Efí: PUT /v2/webhook/{chave}). */
  registerWebhook(url: string): Promise<void>;
}

/** What a PSP's webhook delivers (Efí: POST {registered url}/pix), before we confirm it with getPixCharge. */
export interface PixNotification {
  txid: string;
  endToEndId: string;
  /** Amount as the notification states it, integer cents. */
  amountCents: number;
}
