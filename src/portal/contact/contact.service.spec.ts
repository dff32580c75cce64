import { AppException } from '../../platform/web/app.exception';
import { AppConfig } from '../../platform/config/env.validation';
import { MailService, OutgoingMail } from '../../platform/mail/mail.service';
import { User } from '../../platform/database/entities/user.entity';
import { Repository } from 'typeorm';
import { ContactService } from './contact.service';

describe('ContactService', () => {
  const sent: OutgoingMail[] = [];
  const mail = { send: async (m: OutgoingMail) => void sent.push(m) } as unknown as MailService;
  const users = {
    findOneBy: async () => ({ id: 4, email: 'me@org.test', organisationId: 2 }),
  } as unknown as Repository<User>;
  const service = new ContactService(mail, users, { supportEmail: 'desk@vendor.test' } as AppConfig);
  const good = { name: 'Jane', email: 'jane@example.com', subject: 'Hello', message: 'A question' };

  beforeEach(() => (sent.length = 0));

  it('e-mails a valid message to SUPPORT_EMAIL, naming the signed-in account', async () => {
    await expect(service.send(4, good)).resolves.toEqual({ success: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'desk@vendor.test', replyTo: 'jane@example.com' });
    expect(sent[0].subject).toContain('Hello');
    expect(sent[0].text).toContain('Signed-in account: me@org.test');
  });

  it.each([
    [{ ...good, message: '<script>x</script>' }, 'Invalid characters detected'],
    [{ ...good, name: '<a onmouseover=x>' }, 'Invalid characters detected'],
    [{ ...good, subject: '<svg/onload=alert(1)>' }, 'Invalid characters detected'],
    [{ ...good, email: 'nope' }, 'Please enter a valid email'],
    [{ ...good, subject: ' ' }, 'Subject is required'],
  ])('refuses %j: %s', async (dto, message) => {
    const error = await service.send(null, dto).catch((e: AppException) => e);
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).getStatus()).toBe(400);
    expect(((error as AppException).getResponse() as { message: string }).message).toBe(message);
    expect(sent).toHaveLength(0);
  });

  it.each([
    { ...good, subject: 'Question one = yes' },
    { ...good, message: 'online=true' },
    { ...good, name: 'Simone Onei', message: 'The flag is on=true and one = 1 < 2' },
  ])('accepts plain text that only looks like an attribute: %j', async (dto) => {
    await expect(service.send(null, dto)).resolves.toEqual({ success: true });
    expect(sent).toHaveLength(1);
  });

  it('answers 503 with the failure text when the mail cannot be sent', async () => {
    const failing = new ContactService(
      { send: async () => Promise.reject(new Error('smtp down')) } as unknown as MailService,
      users,
      { supportEmail: 'd@v.test' } as AppConfig,
    );
    const error = (await failing.send(null, good).catch((e: AppException) => e)) as AppException;
    expect(error.getStatus()).toBe(503);
    expect((error.getResponse() as { message: string }).message).toBe(
      'Failed to send message. Please try again later.',
    );
  });
});
