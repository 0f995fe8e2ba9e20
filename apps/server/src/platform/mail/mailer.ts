import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing e-mail over SMTP (`SMTP_URL`, `MAIL_FROM`). Without SMTP_URL nothing is
 * sent and `configured` is false: the screens that would send say to ask an
 * administrator instead.
 */
export interface Mailer {
  readonly configured: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl: string | undefined; from: string }): Mailer {
  if (!options.smtpUrl) {
    return {
      configured: false,
      send: () => Promise.reject(new Error('SMTP is not configured')),
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl, { from: options.from });
  return {
    configured: true,
    async send(mail) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}
