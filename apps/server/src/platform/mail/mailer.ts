import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing e-mail. With `SMTP_URL` it goes out over SMTP (`MAIL_FROM` as sender).
 * Without one, outside production, each message is kept as an `.eml` file in
 * `DATA_DIR/mail/` and its path logged, so a default start can finish a password
 * reset; in production without SMTP nothing is sent and `configured` is false: the
 * screens that would send say to ask an administrator instead.
 */
export interface Mailer {
  readonly configured: boolean;
  /** What the start banner says about mail. */
  readonly description: string;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where messages are kept without SMTP (outside production); null: nowhere. */
  folder: string | null;
  logger: Logger;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return smtpMailer(options.smtpUrl, options.from);
  if (options.folder) return folderMailer(options.folder, options.from, options.logger.child({ module: 'mail' }));
  return {
    configured: false,
    description: 'not configured (SMTP_URL unset): no password-reset codes, no sign-up e-mails',
    send: () => Promise.reject(new Error('SMTP is not configured')),
    close: () => undefined,
  };
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  return {
    configured: true,
    description: `SMTP (${new URL(smtpUrl).host})`,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

function folderMailer(folder: string, from: string, logger: Logger): Mailer {
  // nodemailer builds the whole message (headers, encoding) without sending it anywhere.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    configured: true,
    description: `kept as .eml files in ${folder} (SMTP_URL unset; outside production only)`,
    async send(mail) {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      await mkdir(folder, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(folder, name);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Warn, so that `npm start` (LOG_LEVEL warn) prints where the message is.
      logger.warn({ to: mail.to, subject: mail.subject, file }, `e-mail not sent (SMTP_URL unset): kept in ${file}`);
    },
    close: () => transport.close(),
  };
}
