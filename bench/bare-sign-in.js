#!/usr/bin/env node
/**
 * The floor of a password sign-in on this machine: a bare node:http server that reads the JSON body, verifies the
 * password against one argon2id hash with as many hashes in flight as the product's hashing slots, and answers a
 * sign-in's bytes (a token of the product's length and its two cookies). No framework, no database, no audit: what
 * any server that hashes pays. bench/hot-path.js runs it in its own process beside the product and the raw verifies.
 *
 *   BARE_HASH=<argon2id hash> BARE_SLOTS=2 node bench/bare-sign-in.js   (prints its port)
 */
const http = require('node:http');
const argon2 = require('argon2');

const hash = process.env.BARE_HASH;
const slots = Number(process.env.BARE_SLOTS) || 1;
if (!hash) throw new Error('BARE_HASH is required');

// A plain FIFO of hashing slots, as the product's semaphore keeps them.
let free = slots;
const waiting = [];
const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise((r) => waiting.push(r)));
const release = () => (waiting.length ? waiting.shift()() : free++);

const answer = Buffer.from(JSON.stringify({ success: true, accessToken: 'x'.repeat(330) }));
const cookies = [
  `refresh_token=${'r'.repeat(64)}; Path=/; HttpOnly; SameSite=Strict`,
  `browser_id=${'b'.repeat(43)}; Path=/; HttpOnly`,
];

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let ok;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        await acquire();
        try {
          ok = await argon2.verify(hash, String(body.password));
        } finally {
          release();
        }
      } catch {
        ok = false;
      }
      if (!ok) {
        res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' }).end('{"success":false}');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': answer.length,
        'set-cookie': cookies,
      });
      res.end(answer);
    });
  })
  .listen(0, '127.0.0.1', function () {
    process.stdout.write(`${this.address().port}\n`);
  });
