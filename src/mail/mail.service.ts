import { Inject, Injectable, Logger } from '@nestjs/common';
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as nodemailer from 'nodemailer';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { MetricsService } from '../metrics/metrics.service';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/**
 * Sends e-mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written as an
 * .eml file to DATA_DIR/outbox and its subject and links are logged, so one machine completes every flow.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport: nodemailer.Transporter;
  private readonly outbox?: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, private readonly metrics: MetricsService) {
    if (config.smtpUrl) {
      this.transport = nodemailer.createTransport(config.smtpUrl);
    } else {
      this.outbox = join(config.dataDir, 'outbox');
      mkdirSync(this.outbox, { recursive: true });
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.metrics.trackMail(this.transport.sendMail({ from: this.config.mailFrom, ...mail }));
    if (this.outbox) {
      const file = join(this.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      writeFileSync(file, (info as unknown as { message: Buffer }).message);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      if (this.config.logLevel !== 'silent') {
        this.logger.log(`E-mail to ${mail.to} written to ${file}: "${mail.subject}"${links.length ? ` links: ${links.join(' ')}` : ''}`);
      }
    }
  }
}
