import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import request from 'supertest';
import { ClientAssets, negotiate } from './client-assets.middleware';

describe('negotiate (Accept-Encoding)', () => {
  const all = { br: 1, gzip: 1, identity: 1 };
  it('prefers brotli, then gzip, then the original', () => {
    expect(negotiate('gzip, deflate, br, zstd', all)).toBe('br');
    expect(negotiate('gzip', all)).toBe('gzip');
    expect(negotiate(undefined, all)).toBe('identity');
    expect(negotiate('', all)).toBe('identity');
  });
  it('honours q=0 and the wildcard', () => {
    expect(negotiate('br;q=0, gzip', all)).toBe('gzip');
    expect(negotiate('*', all)).toBe('br');
    expect(negotiate('*;q=0, identity', all)).toBe('identity');
    expect(negotiate('BR;Q=0.5', all)).toBe('br');
  });
  it('sends only what exists', () => {
    expect(negotiate('br, gzip', { gzip: 1, identity: 1 })).toBe('gzip');
    expect(negotiate('br, gzip', { identity: 1 })).toBe('identity');
  });
});

describe('ClientAssets: the pre-rendered login page', () => {
  let root: string;
  const page = '<!doctype html><div id="root"><main data-testid="login-card"></main></div>';
  const app = (dir: string) => {
    const server = express();
    server.use(new ClientAssets(dir).use);
    server.use((_req, res) => res.status(200).type('text/html').send('index.html'));
    return server;
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'client-assets-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'login.html'), page);
    writeFileSync(join(root, 'login.html.br'), brotliCompressSync(page));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answers /logIn, in any case and with a trailing slash, with the card already in it, revalidated each load', async () => {
    for (const path of ['/logIn', '/login/', '/LOGIN', '/logIn?returnTo=%2Fusers']) {
      const res = await request(app(root)).get(path).set('Accept-Encoding', 'identity').expect(200);
      expect(res.text).toBe(page);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const compressed = await request(app(root)).get('/logIn').set('Accept-Encoding', 'br').expect(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.text).toBe(page);
    const etag = compressed.headers.etag;
    await request(app(root)).get('/logIn').set('Accept-Encoding', 'br').set('If-None-Match', etag).expect(304);
  });

  it('leaves every other page, a POST, and a build without the pre-rendered page to the SPA fallback', async () => {
    for (const path of ['/', '/users', '/logInx', '/logIn/more']) {
      expect((await request(app(root)).get(path).expect(200)).text).toBe('index.html');
    }
    await request(app(root)).post('/logIn').expect(200, 'index.html');
    const bare = mkdtempSync(join(tmpdir(), 'client-assets-'));
    try {
      expect((await request(app(bare)).get('/logIn').expect(200)).text).toBe('index.html');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
