import { MAIL_LIMITS } from '@eln/shared';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (the notification mails). */
  html?: string;
  /** `<id@host>`: the same on every try of one mail, so a receiver can tell a repeat from a new mail. */
  messageId?: string;
  /** The language the mail is written in (Content-Language). */
  language?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Sends mail through SMTP when SMTP_URL is configured. Without it, the mail is written to the server
 * log, so that a password reset link can still be handed over on a machine with no mail server.
 */
export async function createMailer(
  smtpUrl: string | null,
  from: string,
  log: { info(details: object, message: string): void },
): Promise<Mailer> {
  if (!smtpUrl) {
    return {
      async send(mail) {
        log.info({ mailTo: mail.to, subject: mail.subject }, `mail not sent (no SMTP_URL configured):\n${mail.text}`);
      },
    };
  }
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(withTimeouts(smtpUrl));
  return {
    async send({ language, ...mail }) {
      await transport.sendMail({
        from,
        ...mail,
        // Mails the notebook writes by itself: receivers' auto-responders do not answer them (RFC 3834).
        headers: { 'Auto-Submitted': 'auto-generated', ...(language ? { 'Content-Language': language } : {}) },
      });
    },
  };
}

/**
 * SMTP_URL with nodemailer's timeouts (connecting, the greeting, each answer) set to MAIL_LIMITS unless the
 * URL sets them itself (`?socketTimeout=…`): its defaults let one stalled server hold a send for ten
 * minutes, as long as the outbox's lease.
 */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const ms = String(MAIL_LIMITS.smtpTimeoutSeconds * 1000);
  for (const key of ['connectionTimeout', 'greetingTimeout', 'socketTimeout'])
    if (!url.searchParams.has(key)) url.searchParams.set(key, ms);
  return url.toString();
}

/** What a failed send says of itself: the server's answer (or the network's error), and whether trying again can help. */
export interface SendFailure {
  message: string;
  /** A recipient the server refuses for good (5xx to RCPT TO): no later try would be accepted. */
  permanent: boolean;
}

export function sendFailureOf(error: unknown): SendFailure {
  const details = (error ?? {}) as { message?: unknown; response?: unknown; responseCode?: unknown; command?: unknown; code?: unknown };
  const responseCode = typeof details.responseCode === 'number' ? details.responseCode : null;
  // The server's own answer when there is one ("451 4.2.1 Mailbox busy"), else the network's error with its code.
  const text =
    typeof details.response === 'string'
      ? details.response
      : `${typeof details.code === 'string' ? `${details.code}: ` : ''}${typeof details.message === 'string' ? details.message : String(error)}`;
  return {
    message: text.slice(0, MAIL_LIMITS.lastErrorChars),
    permanent: responseCode !== null && responseCode >= 500 && details.command === 'RCPT TO',
  };
}
