import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Sends mail through SMTP when SMTP_URL is configured. Without it, the mail is written to the server
 * log, so that a password reset link can still be handed over on a machine with no mail server.
 */
export async function createMailer(smtpUrl: string | null, from: string, log: FastifyBaseLogger): Promise<Mailer> {
  if (!smtpUrl) {
    return {
      async send(mail) {
        log.info({ mailTo: mail.to, subject: mail.subject }, `mail not sent (no SMTP_URL configured):\n${mail.text}`);
      },
    };
  }
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
