import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a free loopback port that keeps what it receives, and the connection errors it saw: a
 * client killed in the middle of a mail (the fault suite kills workers) resets its connection, which the server
 * reports as an error event; unheard, that event would crash the test process.
 */
export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; errors: Error[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const errors: Error[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.on('error', (err) => errors.push(err));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, mails, errors, close: () => new Promise<void>((r) => server.close(() => r())) };
}
