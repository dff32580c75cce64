import { detectImageType } from './image-type';
import { UploadUrlSigner } from './upload-url-signer';
import { testSecret } from '../../../test/utils/secrets';

describe('detectImageType: the type from the bytes, never the name', () => {
  it('recognises PNG, JPEG, GIF87a/89a and WebP', () => {
    expect(detectImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(detectImageType(Buffer.from('GIF87a....'))).toBe('image/gif');
    expect(detectImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(detectImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe(
      'image/webp',
    );
  });

  it('refuses SVG, HTML, a RIFF that is not WebP, truncated signatures and nothing', () => {
    for (const text of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?xml version="1.0"?><svg/>',
      '<html>',
      'GIF8',
      '',
    ]) {
      expect(detectImageType(Buffer.from(text))).toBeNull();
    }
    expect(detectImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]))).toBeNull();
    expect(detectImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });
});

describe('UploadUrlSigner', () => {
  const signer = new UploadUrlSigner(testSecret('one'));
  const grant = {
    n: 'nonce',
    o: 1,
    f: 'logo.png',
    s: 10,
    t: 'image/png',
    p: 'a'.repeat(32) + '.png',
    e: 2_000_000_000,
  };

  it('verifies what it signed', () => {
    expect(signer.verify(signer.sign(grant))).toEqual(grant);
  });

  it('refuses a changed payload, another key, a changed signature and junk', () => {
    const [payload, signature] = signer.sign(grant).split('.');
    const forged = Buffer.from(JSON.stringify({ ...grant, o: 2 })).toString('base64url');
    expect(signer.verify(`${forged}.${signature}`)).toBeNull();
    expect(new UploadUrlSigner(testSecret('two')).verify(`${payload}.${signature}`)).toBeNull();
    expect(signer.verify(`${payload}.${signature.slice(1)}`)).toBeNull();
    expect(signer.verify(`${payload}.${signature}.x`)).toBeNull();
    expect(signer.verify('junk')).toBeNull();
  });
});
